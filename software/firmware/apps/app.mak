# SPDX-License-Identifier: BSD-2-Clause
# Shared recipe for LiteDigest firmware apps (the LiteX demo-app pattern), built out of tree.
# An app's Makefile sets APP (its name) and optionally OBJECTS (default crt0.o main.o),
# APP_CFLAGS, APP_LDFLAGS, LIBLD_CONFIG, STACK_IN_MAIN_RAM and HOT_GAP (below), then includes
# this file:
#   make -C software/firmware/apps/<app> BUILD_DIR=<LiteX build dir> [OUT=<output dir>]
# Outputs (<app>.elf, <app>.bin, objects) go to $(OUT), default $(BUILD_DIR)/firmware/<app>.
# Every app links the C library (software/firmware/lib), built once per LiteX build directory
# into $(LIBLD) with the SoC's flags and -O2 (the software baseline must be the fast build:
# common.mak compiles with -Os); it is linked whole, its members in LIBLD_SRCS order, and
# --gc-sections drops what an app does not use.
BUILD_DIR ?= $(error BUILD_DIR=<LiteX build directory> is required)
APPS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
APP_DIR  := $(abspath $(dir $(firstword $(MAKEFILE_LIST))))
OUT      ?= $(BUILD_DIR)/firmware/$(APP)
LDLIB_DIR := $(abspath $(APPS_DIR)/../lib)
# LIBLD_CONFIG: the library's options of an app's own (e.g. the profile app's
# LD_CONFIG_PROFILE=1), defined for the library and the app alike (the headers must see the
# configuration the library was built with); the library is then built into a directory of the
# app's own, so the other apps' library is not touched
ifneq ($(LIBLD_CONFIG),)
LIBLD_OUT ?= $(OUT)/libld
LIBLD_CFLAGS += $(LIBLD_CONFIG:%=-D%)
APP_CFLAGS += $(LIBLD_CONFIG:%=-D%)
endif
LIBLD_OUT ?= $(BUILD_DIR)/firmware/libld
# STACK_IN_MAIN_RAM = 1: the stack at the top of main RAM instead of the integrated SRAM
# (linker.ld), for an app whose stack buffers feed the DMA, which reaches main RAM only
ifeq ($(STACK_IN_MAIN_RAM),1)
APP_LDFLAGS += -Wl,--defsym,LD_STACK_IN_MAIN_RAM=1
endif
# HOT_GAP = N: N bytes between the timed code's block and the rest (linker.ld LD_HOT_GAP), the
# same app in another link layout (`litedigest bench --backend soc --sched --layouts`)
ifneq ($(HOT_GAP),)
APP_LDFLAGS += -Wl,--defsym,LD_HOT_GAP=$(HOT_GAP)
endif
LIBLD    := $(LIBLD_OUT)/libld.a
OBJECTS  ?= crt0.o main.o

include $(APPS_DIR)/../lib/sources.mak
include $(BUILD_DIR)/software/include/generated/variables.mak
include $(SOC_DIRECTORY)/software/common.mak

CFLAGS += -I$(LDLIB_DIR)/include
# only what apps need from the LiteX software built with the SoC
APP_LIBS = libc libcompiler_rt libbase
LIBLD_OBJECTS := $(LIBLD_SRCS:%.c=$(LIBLD_OUT)/%.o)

all: $(OUT)/$(APP).bin

$(OUT) $(LIBLD_OUT):
	mkdir -p $@

$(OUT)/$(APP).bin: $(OUT)/$(APP).elf
	$(OBJCOPY) -O binary $< $@
	chmod -x $@

$(OUT)/$(APP).elf: $(OBJECTS:%=$(OUT)/%) $(LIBLD) $(APPS_DIR)/linker.ld
	$(CC) $(LDFLAGS) $(APP_LDFLAGS) -T $(APPS_DIR)/linker.ld -N -o $@ \
		$(OBJECTS:%=$(OUT)/%) \
		$(APP_LIBS:%=-L$(BUILD_DIR)/software/%) \
		-Wl,--whole-archive \
		$(LIBLD) \
		-Wl,--gc-sections \
		-Wl,-Map,$@.map \
		$(APP_LIBS:lib%=-l%)
	chmod -x $@

$(LIBLD): $(LIBLD_OBJECTS)
	$(RM) $@
	$(AR) crs $@ $^

$(OBJECTS:%=$(OUT)/%): CFLAGS += $(APP_CFLAGS)
# the app's options (LIBLD_CONFIG, HOT_GAP, APP_CFLAGS/APP_LDFLAGS) live in its Makefile and
# this file: an edit there rebuilds and relinks the app (with LIBLD_CONFIG dropped, its image
# must link the shared library again, whose objects are older than the image)
$(OBJECTS:%=$(OUT)/%) $(OUT)/$(APP).elf: $(APP_DIR)/Makefile $(APPS_DIR)/app.mak
$(LIBLD_OBJECTS): CFLAGS += -O2 $(LIBLD_CFLAGS)

-include $(OBJECTS:%.o=$(OUT)/%.d) $(LIBLD_OBJECTS:%.o=%.d)

vpath %.c $(APP_DIR)
vpath %.S $(APP_DIR) $(CPU_DIRECTORY)

$(OUT)/%.o: %.c | $(OUT)
	$(compile)

$(OUT)/%.o: %.S | $(OUT)
	$(assemble)

$(LIBLD_OUT)/%.o: $(LDLIB_DIR)/src/%.c | $(LIBLD_OUT)
	$(compile)

clean:
	$(RM) -r $(OUT)

.PHONY: all clean
