package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
)

func TestMemShape(t *testing.T) {
	src := `.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<3>;
	.reg .f32 %f<5>;
	ld.param.u64 %rd1, [p];
	ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];
	st.global.v2.f32 [%rd1], {%f1, %f2};
	ld.f32 %f1, [%rd1];
	ld.shared::cta.u64 %rd2, [%rd1];
	ret;
}
`
	m, err := ptx.Parse("k.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := kernelStats(m, m.Kernels()[0])
	if got := memSig(st, "global"); got != "ld128×1 st64×1" {
		t.Errorf("global signature %q", got)
	}
	if got := memSig(st, "generic"); got != "ld32×1" {
		t.Errorf("generic signature %q", got)
	}
	if st.mem["ld.shared.64"] != 1 || st.nc != 1 || st.total != 6 || st.control != 1 {
		t.Errorf("stats %+v", st)
	}
}

// The parity kernels through the real clang path against nvcc's PTX: no kernel uses local
// memory where nvcc does not, .nc loads are nvcc's, and the vector copies and
// the register tile's stores have nvcc's widths.
func TestParityKernels(t *testing.T) {
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Skip("no clang-19")
	}
	srcs, err := collect("../..", "parity")
	if err != nil || len(srcs) == 0 {
		t.Fatalf("parity kernels: %v (%d)", err, len(srcs))
	}
	rows, err := measure(context.Background(), srcs[0])
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rows {
		if r.err != "" {
			t.Errorf("%s: %s", r.id, r.err)
			continue
		}
		if r.clang.localBytes > 0 && r.nvcc.localBytes == 0 {
			t.Errorf("%s: %d local bytes, nvcc none", r.id, r.clang.localBytes)
		}
		if r.clang.nc != r.nvcc.nc {
			t.Errorf("%s: %d .nc loads, nvcc %d", r.id, r.clang.nc, r.nvcc.nc)
		}
		switch {
		case strings.HasSuffix(r.id, "vec_copies"), strings.HasSuffix(r.id, "sum64"):
			seen++
			if !sameGlobal(r.clang, r.nvcc) {
				t.Errorf("%s: global %s, nvcc %s", r.id, memSig(r.clang, "global"), memSig(r.nvcc, "global"))
			}
		case strings.Contains(r.id, "tile_"):
			seen++
			if c, n := r.clang.mem["st.global.128"], r.nvcc.mem["st.global.128"]; c != n {
				t.Errorf("%s: %d 128-bit stores, nvcc %d", r.id, c, n)
			}
		}
	}
	if seen != 4 {
		t.Errorf("checked %d of the 4 kernels named", seen)
	}
}
