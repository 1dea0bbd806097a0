package main

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func f32s(v ...float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func TestCompareBytesExactAndULP(t *testing.T) {
	a := f32s(1, 2, 3, -0.5)
	if d := CompareBytes("f32", a, f32s(1, 2, 3, -0.5)); !d.Equal || d.String() != "exact" {
		t.Fatalf("equal buffers: %+v", d)
	}
	next := math.Nextafter32(3, 4)
	d := CompareBytes("f32", a, f32s(1, 2, next, -0.5))
	if d.Equal || d.Index != 2 || d.ULP != 1 || d.Differing != 1 {
		t.Fatalf("one ulp at [2]: %+v", d)
	}
	// across zero: -0.0 and +0.0 are 0 ulp apart in value order, the smallest subnormals 1 apart
	d = CompareBytes("f32", f32s(math.Float32frombits(1)), f32s(float32(math.Copysign(0, -1))))
	if d.ULP != 1 {
		t.Fatalf("subnormal vs -0: %+v", d)
	}
	d = CompareBytes("f32", f32s(1), f32s(1, 2))
	if d.Equal || !strings.Contains(d.String(), "size") {
		t.Fatalf("size mismatch: %+v", d)
	}
}

func TestCompareBytesIntegers(t *testing.T) {
	w := binary.LittleEndian.AppendUint32(nil, uint32(0xfffffffe)) // -2
	g := binary.LittleEndian.AppendUint32(nil, 3)
	d := CompareBytes("i32", w, g)
	if d.ULP != 5 || d.Want != "-2" || d.Got != "3" {
		t.Fatalf("i32: %+v", d)
	}
}

func TestNCURowsAndNumbers(t *testing.T) {
	in := `==PROF== Connected to process 1 (/x/bin/k)
"ID","Process ID","Process Name","Kernel Name","sm__cycles_elapsed.max"
"","","","","cycle"
"0","1","k","void k<256>(float *)","3,968"
==PROF== Disconnected from process 1
`
	rows, err := NCURows(strings.NewReader(in))
	if err != nil || len(rows) != 1 || rows[0]["Process Name"] != "k" {
		t.Fatalf("rows %v err %v", rows, err)
	}
	v, err := NCUNumber(rows[0]["sm__cycles_elapsed.max"])
	if err != nil || v != 3968 {
		t.Fatalf("number %v %v", v, err)
	}
	if _, err := NCUNumber("n/a"); err == nil {
		t.Fatal("n/a parsed")
	}
}

func TestCounterMatch(t *testing.T) {
	ncu := map[string]string{}
	model := map[string]float64{}
	for i, c := range Counters {
		ncu[c.NCU] = "1,000"
		model[c.JSON] = 1000
		if i == 3 {
			model[c.JSON] = 999
		}
	}
	eq, diffs := CounterMatch(model, ncu)
	if eq != 7 || len(diffs) != 1 || !strings.HasPrefix(diffs[0], "global_store_sectors") {
		t.Fatalf("eq %d diffs %v", eq, diffs)
	}
}

func TestParseArg(t *testing.T) {
	a, err := ParseArg("p:f32x4[512]=rand(-1,1)")
	if err != nil || !a.Buffer || a.Bytes() != 512*16 || a.Lo != -1 || a.Hi != 1 {
		t.Fatalf("%+v %v", a, err)
	}
	a, err = ParseArg("alpha:f32=1.5")
	if err != nil || a.Buffer || a.Value != "1.5" {
		t.Fatalf("%+v %v", a, err)
	}
	for _, bad := range []string{"x:f32[0]=zeros", "x:f32[4]=rand(1)", "x:f32=abc", "x:q32[4]=zeros", "x:f32[4]=rand(2,1)"} {
		if _, err := ParseArg(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGenerateDeterministic(t *testing.T) {
	a, _ := ParseArg("x:i32[1000]=randint(0,9)")
	b1, b2 := Generate("k", a), Generate("k", a)
	if string(b1) != string(b2) || len(b1) != 4000 {
		t.Fatal("not reproducible")
	}
	if string(Generate("other", a)) == string(b1) {
		t.Fatal("seed ignores the kernel id")
	}
	for i := 0; i < 1000; i++ {
		if v := int32(binary.LittleEndian.Uint32(b1[4*i:])); v < 0 || v > 9 {
			t.Fatalf("[%d] = %d out of range", i, v)
		}
	}
}

func TestF32ToF16(t *testing.T) {
	cases := map[float32]uint16{1: 0x3c00, -2: 0xc000, 0.5: 0x3800, 65504: 0x7bff, 1e6: 0x7c00,
		float32(math.Inf(-1)): 0xfc00, 5.960464477539063e-08: 0x0001, 6.103515625e-05: 0x0400, 1.0009765625: 0x3c01,
		1.00048828125: 0x3c00 /* tie to even */, 1.00146484375: 0x3c02 /* tie to even, up */}
	for f, want := range cases {
		if got := F32ToF16(f); got != want {
			t.Errorf("F32ToF16(%g) = %#04x, want %#04x", f, got, want)
		}
	}
}

func TestExtractSource(t *testing.T) {
	k := &Kernel{ID: "t", Repo: "o/r", Path: "a.cu", Lines: [][2]int{{2, 3}}, Preamble: "#define N 4"}
	s, err := ExtractSource(k, "abc", []byte("l1\nl2\nl3\nl4\n"))
	if err != nil || !strings.Contains(s, "#define N 4\n") || !strings.Contains(s, "l2\nl3\n") || strings.Contains(s, "l1\n") || strings.Contains(s, "l4") {
		t.Fatalf("%q %v", s, err)
	}
	k.Lines = [][2]int{{4, 9}}
	if _, err := ExtractSource(k, "abc", []byte("l1\nl2\n")); err == nil {
		t.Fatal("range past the end accepted")
	}
}

func TestParseSanitizerLog(t *testing.T) {
	log := `========= COMPUTE-SANITIZER
========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x40 in block (1,0,0) :
=========     Write Thread (16,0,0) at k(int *)+0x380 in k.cu:36
=========     Read Thread (0,0,0) at k(int *)+0x3a0 in k.cu:37
=========     Current Value : 7
=========         Host Frame: main [0x928c] in k
========= 
========= Warning: (Warp Level Programming) Potential RAW hazard detected at __shared__ 0x44 in block (2,0,0) :
=========     Write Thread (17,0,0) at k(int *)+0x380 in k.cu:36
=========     Read Thread (1,0,0) at k(int *)+0x3a0 in k.cu:37
========= 
========= Invalid __shared__ read of size 8 bytes
=========     at void k2<(int)256>(const float *)+0x650 in k.cu:59
=========     by thread (8,0,0) in block (8,0,0)
=========     Access to 0x440 is out of bounds
========= RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)
exit 0
`
	got := ParseSanitizerLog(log)
	want := []string{
		"Warning: (Warp Level Programming) Potential RAW hazard detected at write k.cu:36 / read k.cu:37",
		"Invalid __shared__ read of size 8 bytes at k.cu:59",
	}
	if got.Exit != 0 || got.Summary != "RACECHECK SUMMARY: 2 hazards displayed (0 errors, 2 warnings)" {
		t.Errorf("exit %d summary %q", got.Exit, got.Summary)
	}
	if strings.Join(got.Findings, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got.Findings, "\n"), strings.Join(want, "\n"))
	}
	clean := ParseSanitizerLog("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\nexit 0\n")
	st := &SanitizerTruth{Kernels: map[string]map[string]*ToolTruth{"a": {"memcheck": clean}, "b": {"racecheck": got}}}
	if st.Flagged("a") != "" || !strings.Contains(st.Flagged("b"), "k.cu:59") {
		t.Errorf("Flagged: a %q, b %q", st.Flagged("a"), st.Flagged("b"))
	}
}

func TestLaunchSpecSyntax(t *testing.T) {
	k := &Kernel{ID: "x", Name: "k<256>", Grid: [3]int{4, 2, 1}, Block: [3]int{32, 8, 1}, Shmem: 1024}
	for _, s := range []string{"a:f32x4[8]=zeros", "n:i32=8"} {
		a, err := ParseArg(s)
		if err != nil {
			t.Fatal(err)
		}
		k.Args = append(k.Args, a)
	}
	sym, _ := ParseArg("c:f32[4]=ones")
	k.Symbols = []Arg{sym}
	if got, want := LaunchSpec(k, "/d", true), `k<256><<<dim3(4, 2, 1), dim3(32, 8, 1), 1024>>>(a=file("/d/x.a.in.bin"):f32, n=8)`; got != want {
		t.Errorf("named:\n got %s\nwant %s", got, want)
	}
	if got, want := LaunchSpec(k, "/d", false), `k<256><<<dim3(4, 2, 1), dim3(32, 8, 1), 1024>>>(file("/d/x.a.in.bin"):f32, 8)`; got != want {
		t.Errorf("positional:\n got %s\nwant %s", got, want)
	}
	if got := SymbolSpecs(k, "/d"); len(got) != 1 || got[0] != `c=file("/d/x.c.in.bin"):f32` {
		t.Errorf("symbols %q", got)
	}
	if got := InstanceLine(k); !strings.HasPrefix(got, "static void *rc_instance = (void *)&k<256>;") {
		t.Errorf("instance line %q", got)
	}
	if InstanceLine(&Kernel{Name: "plain"}) != "" {
		t.Error("a plain kernel got an instance line")
	}
}
