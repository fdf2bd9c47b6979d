# pkgIndex.tcl for poets::power.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::power 1.0 [list source [file join $dir power.tcl]]
