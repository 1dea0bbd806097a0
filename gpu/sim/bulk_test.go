package sim

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestBulkCopyH200 runs the cp.async.bulk + mbarrier kernels of testdata/measured/tensor/
// src/bulk_copy.cu (a two-stage TMA pipeline, a load/compute/bulk-store round trip, an
// mbarrier phase probe) from nvcc's and clang's PTX and compares with the H200.
func TestBulkCopyH200(t *testing.T) {
	in := readTensor(t, "gemm/bulk_in.bin")
	for _, comp := range []string{"nvcc", "clang"} {
		m := parsePTXFile(t, tensorDir+"ptx/bulk_copy."+comp+".sm_90.ptx")
		for _, k := range []string{"bulk_pipeline", "bulk_roundtrip"} {
			for _, chk := range []Checks{{}, {Race: true, Init: true, Sync: true}} {
				res, err := Launch(context.Background(), m, k, []Arg{{Buffer: in}, {Buffer: make([]byte, len(in))}, {Scalar: 8}},
					Config{Grid: [3]int{4, 1, 1}, Block: [3]int{128, 1, 1}, Check: chk})
				if err != nil {
					t.Errorf("%s %s: %v", comp, k, err)
					continue
				}
				if msg := diffBytes(res.Buffers[1], readTensor(t, "out/"+k+".out"), 4); msg != "" {
					t.Errorf("%s %s: %s", comp, k, msg)
				}
				for _, f := range res.Findings {
					t.Errorf("%s %s: finding %+v", comp, k, f)
				}
			}
		}
		want := readTensor(t, "out/mbarrier_phases.out")
		res, err := Launch(context.Background(), m, "mbarrier_phases", []Arg{{Buffer: make([]byte, len(want))}},
			Config{Grid: [3]int{1, 1, 1}, Block: [3]int{64, 1, 1}})
		if err != nil {
			t.Fatalf("%s mbarrier_phases: %v", comp, err)
		}
		if msg := diffBytes(res.Buffers[0], want, 4); msg != "" {
			t.Errorf("%s mbarrier_phases: %s", comp, msg)
		}
	}
}

// TestMbarrierErrors: a wait that can never complete is a deadlock naming the line,
// and misuse of an mbarrier is an error naming the line and the cause.
func TestMbarrierErrors(t *testing.T) {
	head := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<20>;
	.reg .b64 %rd<6>;
	.reg .pred %p<4>;
	.shared .align 8 .b64 bar;
	.shared .align 16 .b8 buf[256];
	mov.u32 %r1, %tid.x;
	mov.u32 %r3, bar;
	setp.eq.u32 %p1, %r1, 0;
`
	cases := []struct {
		name, body string
		kind       ErrorKind
		msg        string
	}{
		{"never arrives", `@%p1 mbarrier.init.shared::cta.b64 [%r3], 2;
	bar.sync 0;
	@%p1 mbarrier.arrive.shared::cta.b64 %rd1, [%r3];
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0; // BAD
	@!%p2 bra WAIT;`, Deadlock, "1 of 2 arrivals"},
		{"uninitialised", `mbarrier.arrive.shared::cta.b64 %rd1, [%r3]; // BAD`, Trap, "before mbarrier.init"},
		{"too many arrivals", `@%p1 mbarrier.init.shared::cta.b64 [%r3], 4;
	bar.sync 0;
	@%p1 mbarrier.arrive.shared::cta.b64 %rd1, [%r3], 8; // BAD`, Trap, "more arrivals"},
		{"misaligned bulk", `@%p1 mbarrier.init.shared::cta.b64 [%r3], 1;
	ld.param.u64 %rd2, [out];
	mov.u32 %r4, buf;
	@%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd2], 24, [%r3]; // BAD`, Misaligned, "multiples of 16"},
		{"tensor", `@%p1 cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd2, {%r1}], [%r3]; // BAD`, Trap, "tensor map"},
		{"im2col", `@%p1 cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r4], [%rd2, {%r1, %r1, %r1}], [%r3]; // BAD`, Unsupported, "not modelled"},
	}
	for _, c := range cases {
		src := head + "\t" + c.body + "\n\tret;\n}\n"
		_, _, err := runOut(t, src, [3]int{1, 1, 1}, [3]int{64, 1, 1}, 64, Config{})
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		e := wantError(t, err, c.kind, lineOf(t, src, "BAD"))
		if !strings.Contains(e.Error(), c.msg) {
			t.Errorf("%s: %q does not say %q", c.name, e.Error(), c.msg)
		}
	}
}

// TestAsyncRecords: Config.Async gets, per block and warp, the mbarrier and bulk-copy
// effects of bulk_pipeline (4 blocks x 8 tiles of 4 KB): every tile load completes its
// 4096 bytes on a phase that some successful wait waits for, every successful wait's
// phase has a contribution, records name issues that exist, and the records do not
// depend on how many workers ran the blocks.
func TestAsyncRecords(t *testing.T) {
	in := readTensor(t, "gemm/bulk_in.bin")
	m := parsePTXFile(t, tensorDir+"ptx/bulk_copy.nvcc.sm_90.ptx")
	run := func(workers int) map[int][][]AsyncRec {
		got := map[int][][]AsyncRec{}
		var pending [][]AsyncRec
		_, err := Launch(context.Background(), m, "bulk_pipeline", []Arg{{Buffer: in}, {Buffer: make([]byte, len(in))}, {Scalar: 8}},
			Config{Grid: [3]int{4, 1, 1}, Block: [3]int{128, 1, 1}, Workers: workers,
				Async: func(_ int, warps [][]AsyncRec) {
					pending = make([][]AsyncRec, len(warps))
					for i, w := range warps {
						pending[i] = append([]AsyncRec(nil), w...)
					}
				},
				Issues: func(b int, warps [][]Issue) {
					for w, recs := range pending {
						for _, r := range recs {
							if int(r.Issue) >= len(warps[w]) {
								t.Errorf("block %d warp %d: record of issue %d of %d", b, w, r.Issue, len(warps[w]))
							}
						}
					}
					got[b], pending = pending, nil
				}})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	one := run(1)
	if len(one) != 4 {
		t.Fatalf("records of %d blocks, want 4", len(one))
	}
	for b, warps := range one {
		type key struct{ bar, phase int32 }
		contrib, waited := map[key]bool{}, map[key]bool{}
		loads := 0
		for _, recs := range warps {
			for _, r := range recs {
				k := key{r.Bar, r.Phase}
				switch r.Kind {
				case AsyncLoad:
					loads++
					if r.Bytes != 4096 {
						t.Errorf("block %d: a load of %d bytes, want 4096", b, r.Bytes)
					}
					contrib[k] = true
				case AsyncArrive:
					contrib[k] = true
				case AsyncWait:
					if r.Phase >= 0 {
						waited[k] = true
					}
				}
			}
		}
		if loads != 8 {
			t.Errorf("block %d: %d loads recorded, want 8", b, loads)
		}
		for k := range waited {
			if !contrib[k] {
				t.Errorf("block %d: a wait for mbarrier %d phase %d, which nothing contributed to", b, k.bar, k.phase)
			}
		}
		if len(waited) == 0 {
			t.Errorf("block %d: no successful wait recorded", b)
		}
	}
	two := run(2)
	for b := range one {
		if fmt.Sprint(one[b]) != fmt.Sprint(two[b]) {
			t.Errorf("block %d: records differ between 1 and 2 workers", b)
		}
	}
}
