# pkgIndex.tcl for poets::exec.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::exec 1.0 [list source [file join $dir exec.tcl]]
