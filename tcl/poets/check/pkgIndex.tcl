# pkgIndex.tcl for poets::check.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::check 1.0 [list source [file join $dir check.tcl]]
