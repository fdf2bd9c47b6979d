# pkgIndex.tcl for poets::boards.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::boards 1.0 [list source [file join $dir boards.tcl]]
