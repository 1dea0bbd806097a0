package sim

import (
	"context"
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
