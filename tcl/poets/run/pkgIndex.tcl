# pkgIndex.tcl for poets::run.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::run 1.0 [list source [file join $dir run.tcl]]
