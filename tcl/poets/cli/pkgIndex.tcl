# pkgIndex.tcl for poets::cli.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::cli 1.0 [list source [file join $dir cli.tcl]]
