# pkgIndex.tcl for poets::daemons.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::daemons 1.0 [list source [file join $dir daemons.tcl]]
