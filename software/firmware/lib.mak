# The C library's sources, in link order: one list for the host build (Makefile) and the
# SoC builds (apps/app.mak builds them into one libld.a per LiteX build directory).
LIBLD_SRCS := common.c pad.c md_sw.c sha1_sw.c sha256_sw.c sha512_sw.c md_hw.c sched.c skein.c
