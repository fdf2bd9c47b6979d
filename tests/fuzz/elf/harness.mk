# tests/fuzz/elf: the project's one ELF reader (sim/elf32.c) through its
# entry points (elf32_load on a file, elf32_load_buffer), then what checkelf
# and elf2img do with a loaded image (firmware/tools/checkelf.h).
FUZZ_NAMES += elf
FUZZ_SRCS_elf  := tests/fuzz/elf/fuzz.c sim/elf32.c firmware/tools/checkelf.c firmware/tools/elf2img.c \
                  firmware/tools/rv_check.c
FUZZ_FLAGS_elf := -Isim -Ifirmware/tools -I$(GEN)
FUZZ_DEPS_elf  := sim/elf32.h firmware/tools/checkelf.h firmware/tools/rv_check.h $(GEN)/tinsel_config.h
