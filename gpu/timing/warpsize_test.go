package timing

import (
	"testing"
	"unsafe"
)

// TestWarpSize keeps the warp record at a size class whose objects are 64-byte
// aligned (a multiple of 64 bytes), so the hot fields at its start share one
// cache line; a field added without adjusting the padding fails here.
func TestWarpSize(t *testing.T) {
	if n := unsafe.Sizeof(warp{}); n%64 != 0 {
		t.Fatalf("warp is %d bytes, not a multiple of 64: adjust the padding at its end (model.go)", n)
	}
}
