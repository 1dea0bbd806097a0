package program

import (
	"bufio"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arch"
)

// copySample is one line of testdata/programs/h200/copy_times.txt.
type copySample struct {
	bytes int64
	us    float64
}

// readCopyTimes reads the H200's measured copy times per kind.
func readCopyTimes(t *testing.T) map[string][]copySample {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "programs", "h200", "copy_times.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]copySample{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 {
			t.Fatalf("bad line %q", sc.Text())
		}
		n, err1 := strconv.ParseInt(fs[1], 10, 64)
		us, err2 := strconv.ParseFloat(fs[2], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", sc.Text())
		}
		out[fs[0]] = append(out[fs[0]], copySample{n, us})
	}
	if len(out) != 6 {
		t.Fatalf("%d kinds in copy_times.txt, want 6", len(out))
	}
	return out
}

// calibration says whether a measured size is one the model was fitted on (4^k
// bytes); the other powers of two are validation sizes.
func calibration(n int64) bool { return bits.TrailingZeros64(uint64(n))%2 == 0 }

// inSegment says whether n falls in segment i of segs.
func inSegment(segs []copySegment, i int, n int64) bool {
	lo := int64(0)
	if i > 0 {
		lo = segs[i-1].MaxBytes
	}
	return n > lo && (segs[i].MaxBytes == 0 || n <= segs[i].MaxBytes)
}

// fitLine fits us = a + b*bytes by least squares on relative error.
func fitLine(s []copySample) (latency, gbs float64) {
	var s00, s01, s11, r0, r1 float64
	for _, p := range s {
		w, n := 1/(p.us*p.us), float64(p.bytes)
		s00 += w
		s01 += w * n
		s11 += w * n * n
		r0 += w * p.us
		r1 += w * p.us * n
	}
	det := s00*s11 - s01*s01
	a, b := (r0*s11-s01*r1)/det, (s00*r1-s01*r0)/det
	return a, 1 / b / 1e3
}

// TestCopyModelFit refits every kind's segments on the calibration sizes alone and
// checks the figures in copymodel.go are that fit.
func TestCopyModelFit(t *testing.T) {
	data := readCopyTimes(t)
	for k := copyH2DPageable; k <= copyMemset; k++ {
		segs := h200Copy(k)
		for i, seg := range segs {
			var cal []copySample
			for _, p := range data[copyKindNames[k]] {
				if calibration(p.bytes) && inSegment(segs, i, p.bytes) {
					cal = append(cal, p)
				}
			}
			if len(cal) < 3 {
				t.Fatalf("%s segment %d: %d calibration sizes", copyKindNames[k], i, len(cal))
			}
			lat, gbs := fitLine(cal)
			if math.Abs(lat-seg.LatencyUs) > 0.005*lat || math.Abs(gbs-seg.GBs) > 0.005*gbs {
				t.Errorf("%s segment %d: copymodel.go has %.3f µs + %.2f GB/s, the calibration fit is %.3f µs + %.2f GB/s",
					copyKindNames[k], i, seg.LatencyUs, seg.GBs, lat, gbs)
			}
		}
	}
}

// TestCopyModelValidation predicts the validation sizes (powers of two not used in
// the fit, 8 B .. 128 MiB) on sm_90: per kind the median relative error must be
// at most 10% and the largest at most 50% (pageable copies above 64 MiB and device
// copies around the L2 size, 50 MiB, leave a straight line most).
func TestCopyModelValidation(t *testing.T) {
	data := readCopyTimes(t)
	spec, err := arch.Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	for k := copyH2DPageable; k <= copyMemset; k++ {
		var errs []float64
		for _, p := range data[copyKindNames[k]] {
			if calibration(p.bytes) {
				continue
			}
			us, note := copyMicros(spec, k, p.bytes)
			if note != "fitted on the H200" {
				t.Errorf("sm_90 note %q", note)
			}
			errs = append(errs, math.Abs(us-p.us)/p.us)
		}
		sort.Float64s(errs)
		med, worst := errs[len(errs)/2], errs[len(errs)-1]
		t.Logf("%s: %d validation sizes, median error %.1f%%, largest %.1f%%", copyKindNames[k], len(errs), 100*med, 100*worst)
		if len(errs) != 13 || med > 0.10 || worst > 0.50 {
			t.Errorf("%s: %d validation sizes, median error %.1f%%, largest %.1f%%", copyKindNames[k], len(errs), 100*med, 100*worst)
		}
	}
}

// TestCopyModelOtherArchitectures: host copies keep the H200's figures, device copies
// scale its bandwidth by the part's DRAM bandwidth, both labelled.
func TestCopyModelOtherArchitectures(t *testing.T) {
	h200, _ := arch.Lookup("sm_90")
	t4, err := arch.Lookup("sm_75")
	if err != nil {
		t.Fatal(err)
	}
	const n = 64 << 20
	a, _ := copyMicros(h200, copyH2DPinned, n)
	b, note := copyMicros(t4, copyH2DPinned, n)
	if a != b || note != "modelled from the H200" {
		t.Errorf("h2d on sm_75: %.1f µs (%s), sm_90 %.1f", b, note, a)
	}
	a, _ = copyMicros(h200, copyD2D, n)
	b, note = copyMicros(t4, copyD2D, n)
	want := 3.790 + n/(2876.7*t4.MemBandwidthGBs/4800*1e3)
	if math.Abs(b-want) > 1e-6*want || b <= a || !strings.Contains(note, "scaled by DRAM bandwidth") {
		t.Errorf("d2d on sm_75: %.1f µs (%s), want %.1f (sm_90 %.1f)", b, note, want, a)
	}
}

// TestEventsIncludeCopies: cudaEventElapsedTime around copies is their modelled
// time, the timeline has each copy's time and kind, and the clock is their sum.
func TestEventsIncludeCopies(t *testing.T) {
	res, out, errs := runFile(t, "copy_events.cu", "")
	if res.ExitCode != 0 {
		t.Fatalf("exit %d %s; stderr %s", res.ExitCode, res.Message, errs)
	}
	if !strings.Contains(out, "h[0]=2 pinned[n-1]=2\n") {
		t.Errorf("stdout %q", out)
	}
	spec, err := arch.Lookup("sm_80") // Build's default architecture
	if err != nil {
		t.Fatal(err)
	}
	const bytes = 3 << 20
	model := func(k copyKind) float64 { us, _ := copyMicros(spec, k, bytes); return us }
	want := map[string]float64{
		"h2d_pageable": model(copyH2DPageable),
		"kernel":       res.Launches[0].Micros,
		"d2h_pinned":   model(copyD2HPinned),
		"d2d+memset":   model(copyD2D) + model(copyMemset),
		"d2h_pageable": model(copyD2HPageable),
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "MS" {
			continue
		}
		ms, _ := strconv.ParseFloat(f[2], 64)
		w, ok := want[f[1]]
		if !ok || w <= 0 || math.Abs(ms*1000-w) > 0.01+1e-4*w {
			t.Errorf("%s: %.3f µs between events, want %.3f", f[1], ms*1000, w)
		}
		delete(want, f[1])
	}
	if len(want) != 0 {
		t.Errorf("no event time for %v in %q", want, out)
	}
	var sum float64
	kinds := map[string]bool{}
	for _, ev := range res.Events {
		if ev.Kind == "memcpy" || ev.Kind == "memset" {
			if ev.Kind == "memcpy" {
				kinds[ev.Detail] = true
			}
			if ev.Micros <= 0 || ev.Model == "" {
				t.Errorf("timeline entry %+v has no modelled time", ev)
			}
		}
		if math.Abs(ev.StartUs-sum) > 1e-6 {
			t.Errorf("%+v starts at %.3f, the entries before it sum to %.3f", ev, ev.StartUs, sum)
		}
		sum += ev.Micros
	}
	if len(kinds) != 4 || !kinds["HtoD"] || !kinds["DtoH pinned"] || !kinds["DtoD"] || !kinds["DtoH"] {
		t.Errorf("copy kinds in the timeline: %v", kinds)
	}
}
