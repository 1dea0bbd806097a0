package sim

import (
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/mem"
)

// ringPTX: each block stores into the next rank's shared word through mapa and
// st.shared::cluster, then (after a cluster barrier) every thread writes what it
// received, its cluster rank, cluster id and the cluster geometry.
const ringPTX = header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<30>;
	.reg .b64 %rd<6>;
	.reg .pred %p<3>;
	.shared .align 4 .b32 s[64];
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %cluster_ctarank;
	mov.u32 %r3, %cluster_nctarank;
	mov.u32 %r4, s;
	shl.b32 %r5, %r1, 2;
	add.u32 %r6, %r4, %r5;
	add.u32 %r7, %r2, 1;
	rem.u32 %r7, %r7, %r3;
	mapa.shared::cluster.u32 %r8, %r6, %r7;
	mov.u32 %r9, %ctaid.x;
	mul.lo.u32 %r10, %r9, 1000;
	add.u32 %r10, %r10, %r1;
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
	st.shared::cluster.u32 [%r8], %r10; // STORE
	barrier.cluster.arrive.release.aligned;
	barrier.cluster.wait.acquire.aligned;
	ld.shared.u32 %r11, [%r6];
	mov.u32 %r12, %clusterid.x;
	mov.u32 %r13, %cluster_ctaid.x;
	mov.u32 %r14, %nclusterid.x;
	mov.u32 %r15, %cluster_nctaid.x;
	getctarank.shared::cluster.u32 %r16, %r8;
	mov.u32 %r20, %ntid.x;
	mad.lo.u32 %r21, %r9, %r20, %r1;
	mul.lo.u32 %r21, %r21, 7;
	mul.wide.u32 %rd2, %r21, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r11;
	st.global.u32 [%rd3+4], %r2;
	st.global.u32 [%rd3+8], %r12;
	st.global.u32 [%rd3+12], %r13;
	st.global.u32 [%rd3+16], %r14;
	st.global.u32 [%rd3+20], %r15;
	st.global.u32 [%rd3+24], %r16;
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
	ret;
}
`

func TestClusterRing(t *testing.T) {
	const grid, block, cl = 8, 64, 4
	var first *Result
	for _, workers := range []int{1, 2, 4} {
		for _, chk := range []Checks{{}, {Race: true, Init: true, Sync: true}} {
			res, out, err := runOut(t, ringPTX, [3]int{grid, 1, 1}, [3]int{block, 1, 1}, grid*block*7,
				Config{Cluster: [3]int{cl, 1, 1}, Workers: workers, Check: chk})
			if err != nil {
				t.Fatalf("workers %d: %v", workers, err)
			}
			for b := 0; b < grid; b++ {
				rank := b % cl
				prev := b - rank + (rank+cl-1)%cl
				for tid := 0; tid < block; tid++ {
					got := out[(b*block+tid)*7:][:7]
					want := []uint32{uint32(prev*1000 + tid), uint32(rank), uint32(b / cl), uint32(rank), grid / cl, cl, uint32((rank + 1) % cl)}
					for i := range want {
						if got[i] != want[i] {
							t.Fatalf("workers %d block %d thread %d word %d: got %d, want %d", workers, b, tid, i, got[i], want[i])
						}
					}
				}
			}
			for _, f := range res.Findings {
				t.Errorf("workers %d: unexpected finding %s", workers, f.Detail)
			}
			if first == nil {
				first = res
			} else if res.Stats != first.Stats {
				t.Errorf("workers %d: stats %+v, with one worker %+v", workers, res.Stats, first.Stats)
			}
		}
	}
}

// TestClusterRace: without the cluster barrier between the remote store and the
// owner's load, racecheck reports a race between two blocks of the cluster.
func TestClusterRace(t *testing.T) {
	src := strings.Replace(ringPTX, "\tbarrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;\n", "", 1)
	res, _, err := runOut(t, src, [3]int{4, 1, 1}, [3]int{32, 1, 1}, 4*32*7, Config{Cluster: [3]int{2, 1, 1}, Check: Checks{Race: true}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range res.Findings {
		if f.Kind == FindRace && f.Space == "shared" && f.HasOther && f.OtherBlock != f.Block && strings.Contains(f.Detail, "cluster barrier") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no distributed shared memory race found: %+v", res.Findings)
	}
}

// gridSyncPTX is a grid-wide barrier as nvcc 13 emits cg::grid_group::sync(): the
// workspace from %envreg1:%envreg2, an atom.add.release.gpu arrival and an
// ld.acquire.gpu spin on the flip of bit 31. Block b writes b+1, syncs, and reads
// block (b+1)%n's word.
const gridSyncPTX = header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<40>;
	.reg .b64 %rd<12>;
	.reg .pred %p<6>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r2, %envreg2;
	cvt.u64.u32 %rd6, %r2;
	mov.u32 %r3, %envreg1;
	cvt.u64.u32 %rd7, %r3;
	bfi.b64 %rd5, %rd7, %rd6, 32, 32;
	mov.u32 %r1, %tid.x;
	mov.u32 %r4, %ctaid.x;
	mov.u32 %r5, %nctaid.x;
	mul.wide.u32 %rd2, %r4, 4;
	add.s64 %rd3, %rd1, %rd2;
	setp.ne.u32 %p1, %r1, 0;
	add.u32 %r6, %r4, 1;
	@!%p1 st.global.u32 [%rd3], %r6;
	setp.ne.s64 %p2, %rd5, 0;
	@%p2 bra HAVE;
	trap; // TRAP
HAVE:
	barrier.sync 0;
	@%p1 bra DONE;
	add.s64 %rd8, %rd5, 4;
	setp.eq.u32 %p3, %r4, 0;
	mov.u32 %r7, -2147483647;
	sub.s32 %r8, %r7, %r5;
	selp.b32 %r9, %r8, 1, %p3;
	atom.add.release.gpu.u32 %r10, [%rd8], %r9;
SPIN:
	ld.acquire.gpu.u32 %r11, [%rd8];
	xor.b32 %r12, %r11, %r10;
	setp.gt.s32 %p4, %r12, -1;
	@%p4 bra SPIN;
DONE:
	barrier.sync 0;
	add.u32 %r13, %r4, 1;
	rem.u32 %r13, %r13, %r5;
	mul.wide.u32 %rd9, %r13, 4;
	add.s64 %rd10, %rd1, %rd9;
	ld.global.u32 %r14, [%rd10];
	barrier.sync 0;
	@%p1 bra END;
	add.u32 %r15, %r5, %r4;
	mul.wide.u32 %rd11, %r15, 4;
	add.s64 %rd11, %rd1, %rd11;
	st.global.u32 [%rd11], %r14;
END:
	ret;
}
`

func TestCooperativeGridSync(t *testing.T) {
	const n = 24
	for _, workers := range []int{1, 3} {
		_, out, err := runOut(t, gridSyncPTX, [3]int{n, 1, 1}, [3]int{64, 1, 1}, 2*n, Config{Cooperative: true, Workers: workers})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		for b := 0; b < n; b++ {
			if out[b] != uint32(b+1) || out[n+b] != uint32((b+1)%n+1) {
				t.Fatalf("workers %d block %d: wrote %d, read %d; want %d and %d", workers, b, out[b], out[n+b], b+1, (b+1)%n+1)
			}
		}
	}
	// Not cooperative: the workspace is 0 and the kernel traps, with the reason.
	_, _, err := runOut(t, gridSyncPTX, [3]int{n, 1, 1}, [3]int{64, 1, 1}, 2*n, Config{})
	e, ok := err.(*Error)
	if !ok || e.Kind != Trap || e.PTXLine != lineOf(t, gridSyncPTX, "// TRAP") || !strings.Contains(e.Cause, "cooperative") {
		t.Fatalf("non-cooperative grid sync: %v", err)
	}
	// More blocks than fit at once.
	_, _, err = runOut(t, gridSyncPTX, [3]int{n, 1, 1}, [3]int{64, 1, 1}, 2*n, Config{Cooperative: true, MaxResident: 16, MaxResidentWhy: "1 block per SM on 16 SMs"})
	if e, ok := err.(*Error); !ok || e.Kind != InvalidLaunch || !strings.Contains(e.Msg, "cooperative launch of 24 blocks needs all 24 resident at once; at most 16 fit (1 block per SM on 16 SMs)") {
		t.Fatalf("too many blocks: %v", err)
	}
}

// TestClusterErrors: misuse is an error naming the line and the cause.
func TestClusterErrors(t *testing.T) {
	_, _, err := runOut(t, ringPTX, [3]int{6, 1, 1}, [3]int{32, 1, 1}, 6*32*7, Config{Cluster: [3]int{4, 1, 1}})
	if e, ok := err.(*Error); !ok || e.Kind != InvalidLaunch || !strings.Contains(e.Msg, "not a multiple of the cluster (4,1,1) in x") {
		t.Errorf("grid not divisible: %v", err)
	}
	bad := strings.Replace(ringPTX, "rem.u32 %r7, %r7, %r3;", "add.u32 %r7, %r7, %r3;", 1)
	_, _, err = runOut(t, bad, [3]int{4, 1, 1}, [3]int{32, 1, 1}, 4*32*7, Config{Cluster: [3]int{2, 1, 1}})
	if e, ok := err.(*Error); !ok || e.Kind != Trap || !strings.Contains(e.Msg, "mapa to block rank") || !strings.Contains(e.Cause, "the cluster has 2 blocks") ||
		e.PTXLine != lineOf(t, bad, "mapa.shared") {
		t.Errorf("mapa rank out of range: %v", err)
	}
	far := strings.Replace(ringPTX, "st.shared::cluster.u32 [%r8], %r10; // STORE", "add.u32 %r8, %r8, 4096;\n\tst.shared::cluster.u32 [%r8], %r10; // STORE", 1)
	_, _, err = runOut(t, far, [3]int{4, 1, 1}, [3]int{32, 1, 1}, 4*32*7, Config{Cluster: [3]int{2, 1, 1}})
	if e, ok := err.(*Error); !ok || e.Kind != SharedOutOfRange || !strings.Contains(e.Msg, "distributed shared store") || e.PTXLine != lineOf(t, far, "// STORE") {
		t.Errorf("remote offset out of range: %v", err)
	}
	// Block rank 1's threads skip the last cluster barrier: the others wait forever.
	dl := strings.Replace(ringPTX, "\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;\n\tret;", "\tsetp.eq.u32 %p1, %r2, 1;\n\t@%p1 bra SKIP;\n\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned; // WAIT\nSKIP:\n\tret;", 1)
	_, _, err = runOut(t, dl, [3]int{4, 1, 1}, [3]int{32, 1, 1}, 4*32*7, Config{Cluster: [3]int{2, 1, 1}})
	if err != nil {
		t.Errorf("exited threads must not hold up the cluster barrier: %v", err)
	}
	// Warp 1 of block rank 1 waits at bar.sync 1 for warp 0, which waits at the cluster
	// barrier for warp 1: a deadlock naming the cluster barrier.
	dl2 := strings.Replace(ringPTX, "\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;\n\tret;",
		"\tsetp.eq.u32 %p1, %r2, 1;\n\tsetp.ge.u32 %p2, %r1, 32;\n\tand.pred %p1, %p1, %p2;\n\t@%p1 bra SKIP;\n\tbarrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned; // WAIT\n\tret;\nSKIP:\n\tbar.sync 1, 64;\n\tret;", 1)
	_, _, err = runOut(t, dl2, [3]int{4, 1, 1}, [3]int{64, 1, 1}, 4*64*7, Config{Cluster: [3]int{2, 1, 1}})
	if e, ok := err.(*Error); !ok || e.Kind != Deadlock || !strings.Contains(e.Msg, "cluster barrier can never complete") || e.PTXLine != lineOf(t, dl2, "// WAIT") {
		t.Errorf("a cluster barrier that cannot complete: %v", err)
	}
}

// TestClusterOfOne: a launch without clusters is one of clusters of one block: mapa to
// rank 0 and the cluster barrier work within the block, with the checks on.
func TestClusterOfOne(t *testing.T) {
	res, out, err := runOut(t, ringPTX, [3]int{3, 1, 1}, [3]int{64, 1, 1}, 3*64*7, Config{Check: Checks{Race: true, Init: true, Sync: true}})
	if err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 3; b++ {
		for tid := 0; tid < 64; tid++ {
			got := out[(b*64+tid)*7:][:7]
			want := []uint32{uint32(b*1000 + tid), 0, uint32(b), 0, 3, 1, 0}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("block %d thread %d word %d: got %d, want %d", b, tid, i, got[i], want[i])
				}
			}
		}
	}
	for _, f := range res.Findings {
		t.Errorf("unexpected finding %s", f.Detail)
	}
}

// TestCooperativeShadowBound: the checkers of a co-scheduled group are bounded: a
// cooperative launch whose blocks' shared shadow would pass the limit runs without
// racecheck and initcheck, and says so.
func TestCooperativeShadowBound(t *testing.T) {
	src := header + `.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.shared .align 4 .b8 s[32768];
	mov.u32 %r1, %tid.x;
	st.shared.u32 [s], %r1;
	ret;
}
`
	res, _, err := runOut(t, src, [3]int{1100, 1, 1}, [3]int{32, 1, 1}, 1, Config{Cooperative: true, Check: Checks{Race: true, Init: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.CheckNotes) == 0 || !strings.Contains(strings.Join(res.CheckNotes, "\n"), "racecheck and initcheck were off: the 1100 co-scheduled blocks") {
		t.Fatalf("notes %q", res.CheckNotes)
	}
}

// TestClusterDSMEMLanes: the st.shared::cluster into the next rank reaches another block's
// shared memory on every lane (mem.Access.DSMEM, for the timing model), the block's own
// ld.shared none; in clusters of one block the same store (mapa to rank 0) is the block's own.
func TestClusterDSMEMLanes(t *testing.T) {
	for _, cl := range []int{4, 1} {
		var stores, remote, loads, loadRemote int
		cfg := Config{Cluster: [3]int{cl, 1, 1}, Workers: 1, OnMemory: func(a *mem.Access) {
			if a.Space != mem.Shared {
				return
			}
			switch a.Kind {
			case mem.Store:
				stores++
				if a.DSMEM == a.Mask {
					remote++
				} else if a.DSMEM != 0 {
					t.Errorf("cluster %d: store with lanes %#x, remote %#x", cl, a.Mask, a.DSMEM)
				}
			case mem.Load:
				loads++
				if a.DSMEM != 0 {
					loadRemote++
				}
			}
		}}
		if _, _, err := runOut(t, ringPTX, [3]int{8, 1, 1}, [3]int{64, 1, 1}, 8*64*7, cfg); err != nil {
			t.Fatal(err)
		}
		wantRemote := stores
		if cl == 1 {
			wantRemote = 0
		}
		if stores == 0 || remote != wantRemote || loads == 0 || loadRemote != 0 {
			t.Errorf("cluster %d: %d shared stores, %d to another block (want %d); %d loads, %d to another block (want 0)", cl, stores, remote, wantRemote, loads, loadRemote)
		}
	}
}
