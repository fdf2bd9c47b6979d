// tinsel_entry.S: an application entry written as Tinsel's apps write
// theirs (tinsel.md §11): only a jump to main. The boot loader must call it
// as a function, so that main can return.
  .section .text.entry, "ax"
  .globl _app_start
_app_start:
  j     main
