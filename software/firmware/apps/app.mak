# Shared recipe for LiteDigest firmware apps (the LiteX demo-app pattern), built out of tree.
# An app's Makefile sets APP (its name), OBJECTS (crt0.o + its objects) and optionally
# APP_CFLAGS, APP_LDFLAGS, APP_SRC_DIRS (more source directories) and OPT_OBJECTS (objects built with -O2),
# then includes this file:
#   make -C software/firmware/apps/<app> BUILD_DIR=<LiteX build dir> [OUT=<output dir>]
# Outputs (<app>.elf, <app>.bin, objects) go to $(OUT), default $(BUILD_DIR)/firmware/<app>.
BUILD_DIR ?= $(error BUILD_DIR=<LiteX build directory> is required)
APPS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
APP_DIR  := $(abspath $(dir $(firstword $(MAKEFILE_LIST))))
OUT      ?= $(BUILD_DIR)/firmware/$(APP)
LDLIB_DIR := $(abspath $(APPS_DIR)/../lib)

include $(BUILD_DIR)/software/include/generated/variables.mak
include $(SOC_DIRECTORY)/software/common.mak

CFLAGS += -I$(LDLIB_DIR)/include $(APP_CFLAGS)
# only what apps need from the LiteX software built with the SoC
APP_LIBS = libc libcompiler_rt libbase

all: $(OUT)/$(APP).bin

$(OUT):
	mkdir -p $@

$(OUT)/$(APP).bin: $(OUT)/$(APP).elf
	$(OBJCOPY) -O binary $< $@
	chmod -x $@

$(OUT)/$(APP).elf: $(OBJECTS:%=$(OUT)/%) $(APPS_DIR)/linker.ld
	$(CC) $(LDFLAGS) $(APP_LDFLAGS) -T $(APPS_DIR)/linker.ld -N -o $@ \
		$(OBJECTS:%=$(OUT)/%) \
		$(APP_LIBS:%=-L$(BUILD_DIR)/software/%) \
		-Wl,--whole-archive \
		-Wl,--gc-sections \
		-Wl,-Map,$@.map \
		$(APP_LIBS:lib%=-l%)
	chmod -x $@

# the software baseline must be the fast build: -O2 (common.mak compiles with -Os)
$(OPT_OBJECTS:%=$(OUT)/%): CFLAGS += -O2

-include $(OBJECTS:%.o=$(OUT)/%.d)

vpath %.c $(APP_DIR) $(APP_SRC_DIRS)
vpath %.S $(CPU_DIRECTORY)

$(OUT)/%.o: %.c | $(OUT)
	$(compile)

$(OUT)/%.o: %.S | $(OUT)
	$(assemble)

clean:
	$(RM) -r $(OUT)

.PHONY: all clean
