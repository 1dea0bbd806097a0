package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// anyValue marks a register whose value the test does not check.
const anyValue = ^uint64(0)

// TestPredefinedIdentifiers is the table of the PTX ISA's predefined
// identifiers: each is parsed, and simulated in a launch of 2 blocks of 64
// threads with 100 bytes of dynamic shared memory on 132 SMs (sm_90's 64
// warps per SM). Thread 33 of block 1 stores what it read. The values marked
// H200 were read on an H200 (testdata/realcuda/launch); the ones without a
// defined value are an Unsupported error naming the PTX line.
func TestPredefinedIdentifiers(t *testing.T) {
	cases := []struct {
		id, typ string
		want    uint64 // ignored when err is set
		err     string
	}{
		{"WARP_SZ", "u32", 32, ""},               // H200
		{"%laneid", "u32", 1, ""},                // H200
		{"%warpid", "u32", 1, ""},                // the warp's index in the block
		{"%nwarpid", "u32", 64, ""},              // H200
		{"%tid.x", "u32", 33, ""},                //
		{"%ntid.x", "u32", 64, ""},               //
		{"%ctaid.x", "u32", 1, ""},               //
		{"%nctaid.x", "u32", 2, ""},              //
		{"%smid", "u32", 1, ""},                  // blocks go round-robin over the SMs
		{"%nsmid", "u32", 132, ""},               // H200
		{"%gridid", "u64", 1, ""},                // a per-launch counter on the GPU; 1 here
		{"%lanemask_eq", "u32", 1 << 1, ""},      // H200
		{"%lanemask_le", "u32", 3, ""},           // H200
		{"%lanemask_lt", "u32", 1, ""},           // H200
		{"%lanemask_ge", "u32", 0xfffffffe, ""},  // H200
		{"%lanemask_gt", "u32", 0xfffffffc, ""},  // H200
		{"%dynamic_smem_size", "u32", 100, ""},   // H200
		{"%total_smem_size", "u32", 128, ""},     // H200: 100 rounded up to 128
		{"%is_explicit_cluster", "pred", 0, ""},  // H200
		{"%clusterid.x", "u32", 1, ""},           // H200: = %ctaid without clusters
		{"%nclusterid.x", "u32", 2, ""},          // H200
		{"%cluster_ctaid.x", "u32", 0, ""},       // H200
		{"%cluster_nctaid.x", "u32", 1, ""},      // H200
		{"%cluster_ctarank", "u32", 0, ""},       // H200
		{"%cluster_nctarank", "u32", 1, ""},      // H200
		{"%current_graph_exec", "u64", 0, ""},    // not a graph launch
		{"%clock", "u32", anyValue, ""},          // a modelled count, no hardware value to match
		{"%clock_hi", "u32", anyValue, ""},       //
		{"%clock64", "u64", anyValue, ""},        //
		{"%globaltimer", "u64", anyValue, ""},    //
		{"%globaltimer_lo", "u32", anyValue, ""}, //
		{"%aggr_smem_size", "u32", 0, "reads %aggr_smem_size"},
		{"%reserved_smem_offset_begin", "u32", 0, "reads %reserved_smem_offset_begin"},
		{"%reserved_smem_offset_end", "u32", 0, "reads %reserved_smem_offset_end"},
		{"%reserved_smem_offset_cap", "u32", 0, "reads %reserved_smem_offset_cap"},
		{"%reserved_smem_offset_1", "u32", 0, "reads %reserved_smem_offset_1"},
		{"%envreg0", "u32", 0, "reads %envreg0"},
		{"%envreg31", "u32", 0, "reads %envreg31"},
		{"%pm0", "u32", 0, "reads %pm0"},
		{"%pm7_64", "u64", 0, "reads %pm7_64"},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			read := fmt.Sprintf("\tmov.%s %%rd4, %s;\n", c.typ, c.id)
			switch c.typ {
			case "u32":
				read = fmt.Sprintf("\tmov.u32 %%r3, %s;\n\tcvt.u64.u32 %%rd4, %%r3;\n", c.id)
			case "pred":
				read = fmt.Sprintf("\tmov.pred %%p1, %s;\n\tselp.u64 %%rd4, 1, 0, %%p1;\n", c.id)
			}
			src := `.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	.reg .pred %p<2>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	setp.ne.u32 %p1, %r1, 33;
	@%p1 bra DONE;
	setp.ne.u32 %p1, %r2, 1;
	@%p1 bra DONE;
` + read + `	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	st.global.u64 [%rd1], %rd4;
DONE:
	ret;
}
`
			line := lineOf(t, src, c.id)
			m := parseSrc(t, src)
			cfg := Config{Grid: [3]int{2, 1, 1}, Block: [3]int{64, 1, 1}, DynamicShared: 100, NumSMs: 132, MaxWarpsPerSM: 64, SharedAllocUnit: 128}
			res, err := Launch(t.Context(), m, "k", []Arg{{Buffer: make([]byte, 8)}}, cfg)
			if c.err != "" {
				var se *Error
				if !errors.As(err, &se) || se.Kind != Unsupported || !strings.Contains(err.Error(), c.err) || se.PTXLine != line {
					t.Fatalf("error %v, want an unsupported error at PTX line %d containing %q", err, line, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := loadLE(res.Buffers[0], 8)
			if c.want != anyValue && got != c.want {
				t.Errorf("%s = %d (%#x), want %d", c.id, got, got, c.want)
			}
		})
	}
}

// TestSymbolsSetAndReadBack: Config.Symbols overrides a PTX initialiser, and
// Result.Variables holds the variables after the launch; a symbol that names
// no variable, or has more bytes than it, is an error naming it.
func TestSymbolsSetAndReadBack(t *testing.T) {
	src := `.version 8.0
.target sm_90
.address_size 64
.const .align 4 .b8 table[8] = {1, 0, 0, 0, 2, 0, 0, 0};
.global .align 4 .u32 total;
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.const.u32 %r1, [table+4];
	atom.global.add.u32 %r2, [total], %r1;
	ret;
}
`
	m := parseSrc(t, src)
	cfg := Config{Grid: [3]int{1, 1, 1}, Block: [3]int{32, 1, 1}, Symbols: map[string][]byte{"table": {9, 0, 0, 0, 5}}}
	res, err := Launch(t.Context(), m, "k", []Arg{{Buffer: make([]byte, 4)}}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string][]byte{}
	for _, v := range res.Variables {
		vars[v.Name] = v.Data
	}
	if got := loadLE(vars["total"], 4); got != 32*5 {
		t.Errorf("total = %d, want %d (table[1] = 5 from the launch, 32 threads)", got, 32*5)
	}
	if got := loadLE(vars["table"], 4); got != 9 {
		t.Errorf("table[0] = %d, want 9", got)
	}
	for _, bad := range []struct {
		syms map[string][]byte
		want string
	}{
		{map[string][]byte{"tabel": {1}}, "no __constant__ or __device__ variable named tabel in the module (variables: table, total)"},
		{map[string][]byte{"table": make([]byte, 9)}, "symbol table is 8 bytes; the launch gives it 9"},
	} {
		cfg.Symbols = bad.syms
		if _, err := Launch(t.Context(), m, "k", []Arg{{Buffer: make([]byte, 4)}}, cfg); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v, want %q", err, bad.want)
		}
	}
}
