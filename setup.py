# SPDX-License-Identifier: BSD-2-Clause
# Metadata lives in pyproject.toml; this file only wires the cffi extension (the C library
# compiled for the host as litedigest._native) into the build.
from setuptools import setup

setup(cffi_modules=["software/python/litedigest/_native_build.py:ffibuilder"])
