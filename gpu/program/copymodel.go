package program

import "github.com/kernelscope/kernelscope/gpu/arch"

// copyKind is one kind of copy the copy-time model knows.
type copyKind int

const (
	copyH2DPageable copyKind = iota
	copyH2DPinned
	copyD2HPageable
	copyD2HPinned
	copyD2D
	copyMemset
	copyHostOnly // host to host: done by the host, no device time
)

// copyKindNames are the kinds as testdata/programs/h200/copy_times.txt names them.
var copyKindNames = [...]string{"h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned", "d2d", "memset", "host"}

// copySegment is latency + bytes / bandwidth for sizes up to MaxBytes (0: any size).
type copySegment struct {
	MaxBytes  int64
	LatencyUs float64
	GBs       float64
}

// h200CopyGBs is the DRAM bandwidth of the part the copy model was measured on
// (gpu/arch sm_90's MemBandwidthGBs); device-side copies on other parts scale by it.
const h200CopyGBs = 4800

// h200Copy is the copy-time model of the H200, per copyKind: fitted (least squares
// on relative error) on the calibration sizes 4^k bytes (4 B .. 256 MiB) of
// testdata/programs/h200/copy_times.txt (cudaEvents around cudaMemcpy/cudaMemset on
// the default stream); the other powers of two there are validation sizes
// (TestCopyModelFit, TestCopyModelValidation). Memset has two regimes: up to 4 KiB
// it is a ~1 µs operation, above it ~3 µs + bandwidth (the 4 KiB break is read off
// the measurements, not fitted).
func h200Copy(k copyKind) []copySegment {
	switch k {
	case copyH2DPageable:
		return []copySegment{{0, 6.486, 11.89}}
	case copyH2DPinned:
		return []copySegment{{0, 7.204, 53.08}}
	case copyD2HPageable:
		return []copySegment{{0, 7.677, 11.96}}
	case copyD2HPinned:
		return []copySegment{{0, 6.571, 55.04}}
	case copyD2D:
		return []copySegment{{0, 3.790, 2876.7}}
	case copyMemset:
		return []copySegment{{4096, 0.961, 7.07}, {0, 3.135, 4537.2}}
	}
	return nil
}

// copyMicros is the modelled device time of a copy of n bytes on spec, and where
// the figures come from. Host<->device copies use the H200's figures on every
// architecture (gpu/arch has no host-link bandwidth); device-side copies and memsets
// keep the H200's latency and scale its bandwidth by the part's DRAM bandwidth.
func copyMicros(spec *arch.Spec, k copyKind, n int64) (float64, string) {
	segs := h200Copy(k)
	if len(segs) == 0 {
		return 0, "host copy: no device time"
	}
	seg := segs[len(segs)-1]
	for _, s := range segs {
		if s.MaxBytes == 0 || n <= s.MaxBytes {
			seg = s
			break
		}
	}
	gbs, note := seg.GBs, "fitted on the H200"
	if spec.Name != "sm_90" {
		note = "modelled from the H200"
		if (k == copyD2D || k == copyMemset) && spec.MemBandwidthGBs > 0 {
			gbs *= spec.MemBandwidthGBs / h200CopyGBs
			note = "modelled from the H200, bandwidth scaled by DRAM bandwidth"
		}
	}
	return seg.LatencyUs + float64(n)/(gbs*1e3), note
}
