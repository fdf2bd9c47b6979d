# pkgIndex.tcl for poets::jtag.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::jtag 1.0 [list source [file join $dir jtag.tcl]]
