# SPDX-License-Identifier: BSD-2-Clause
# The C library's sources, in link order, for Makefiles (the host tests, lib/Makefile, the SoC
# apps' apps/app.mak): read from sources.txt, the one list (CMakeLists.txt and meson.build read
# it too).
LIBLD_SRCS := $(strip $(file < $(dir $(lastword $(MAKEFILE_LIST)))sources.txt))
