# pkgIndex.tcl for poets::flash.
if {![package vsatisfies [package provide Tcl] 8.6]} { return }
package ifneeded poets::flash 1.0 [list source [file join $dir flash.tcl]]
