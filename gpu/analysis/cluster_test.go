package analysis_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
)

// clusterDir holds this project's cluster, distributed shared memory and
// cooperative kernels and what an H200 gave for them (run_h200.sh made h200/).
const clusterDir = "../../testdata/measured/cluster"

// clusterCases are the harness's launches (harness.cu), in the cell language.
var clusterCases = []struct {
	name, launch string
	outputs      map[string]string // output -> h200/out file (without .out.bin)
}{
	{"dsmem_hist_c2", `dsmem_hist<<<8, 128, 0, cluster(2)>>>(in=arange(8192):u32, out=zeros(1024):u32, n=8192)`, map[string]string{"out": "dsmem_hist_c2"}},
	{"dsmem_hist_c4", `dsmem_hist<<<8, 128, 0, cluster(4,1,1)>>>(in=arange(8192):u32, out=zeros(512):u32, n=8192)`, map[string]string{"out": "dsmem_hist_c4"}},
	{"dsmem_reduce_c2", `dsmem_reduce<<<8, 256, 0, cluster(2)>>>(in=arange(16384):u32, out=zeros(4):f32, n=16384)`, map[string]string{"out": "dsmem_reduce_c2"}},
	{"dsmem_reduce_c4", `dsmem_reduce<<<8, 256, 0, cluster(4)>>>(in=arange(16384):u32, out=zeros(2):f32, n=16384)`, map[string]string{"out": "dsmem_reduce_c4"}},
	{"pipeline_c2", `pipeline<<<8, 128, 0, cluster(2)>>>(in=arange(1024):u32, out=zeros(1024):u32, steps=10)`, map[string]string{"out": "pipeline_c2"}},
	{"pipeline_c4", `pipeline<<<8, 128, 0, cluster(4)>>>(in=arange(1024):u32, out=zeros(1024):u32, steps=10)`, map[string]string{"out": "pipeline_c4"}},
	{"ring", `ring<<<8, 128>>>(out=zeros(3072):u32, spec=zeros(128):u32, addrs=zeros(32):u32)`, map[string]string{"out": "ring_out", "spec": "ring_spec"}},
	{"cluster_dims", `cluster_dims<<<dim3(4,4), 64, 0, cluster(2,2)>>>(out=zeros(128):u32)`, map[string]string{"out": "cluster_dims"}},
	{"bulk_peer", `bulk_peer<<<4, 128, 0, cluster(2)>>>(in=arange(1024):u32, out=zeros(1024):u32)`, map[string]string{"out": "bulk_peer"}},
	{"grid_reduce", `grid_reduce<<<264, 256, cooperative>>>(in=arange(135168):u32, partial=zeros(264):f32, out=zeros(67586):f32, count=zeros(1):u32, n=135168)`,
		map[string]string{"out": "grid_reduce_out", "partial": "grid_reduce_partial"}},
}

// clusterPaths: nvcc's PTX recorded on the H200's machine, and clang-19 with the prelude.
func clusterPaths(t *testing.T) map[string]analysis.Request {
	t.Helper()
	cu, err := os.ReadFile(filepath.Join(clusterDir, "cluster.cu"))
	if err != nil {
		t.Fatal(err)
	}
	base := analysis.Request{Source: cu, SourceFile: "cluster.cu", Arch: "sm_90", BaseDir: clusterDir, Budget: 2e8}
	out := map[string]analysis.Request{}
	if nv, err := os.ReadFile(filepath.Join(clusterDir, "h200", "cluster.sm_90.ptx")); err == nil {
		n := base
		n.Prebuilt = nv
		out["nvcc"] = n
	} else {
		t.Errorf("no nvcc PTX recorded: %v", err)
	}
	if _, err := exec.LookPath("clang-19"); err != nil {
		t.Log("clang-19 not found: the clang path is not tested")
		return out
	}
	c := base
	c.Compiler = "clang"
	c.Flags = []string{"-DEXPLICIT_PRED"} // as the H200's build (h200/log_build.txt)
	out["clang"] = c
	return out
}

// TestClusterH200 runs every cluster, distributed shared memory and cooperative
// launch through nvcc's PTX and clang's and compares each output byte for byte with
// the H200's, with the checks on (no finding expected: the kernels are race-free).
func TestClusterH200(t *testing.T) {
	for path, req := range clusterPaths(t) {
		for _, c := range clusterCases {
			t.Run(c.name+"/"+path, func(t *testing.T) {
				req.Launch = parseLaunch(t, c.launch, nil)
				req.Checks = analysis.Checks{Race: true, Init: true, Sync: true, Order: true}
				rep, err := analysis.Run(context.Background(), req)
				if err != nil {
					t.Fatalf("%v", err)
				}
				for name, file := range c.outputs {
					want, err := os.ReadFile(filepath.Join(clusterDir, "h200", "out", file+".out.bin"))
					if err != nil {
						t.Fatal(err)
					}
					o := output(rep, name)
					if o == nil {
						t.Fatalf("no output %s (outputs: %v)", name, outputNames(rep))
					}
					if !bytes.Equal(o.Bytes, want) {
						t.Errorf("%s: %d of %d bytes differ from the H200 (first elements %v)", name, diffBytes(o.Bytes, want), len(want), o.First)
					}
				}
				for _, f := range rep.Sanitizer {
					t.Errorf("finding: %s", f.Message)
				}
			})
		}
	}
}

// TestClusterStops: a grid not divisible by its cluster, and a cooperative launch of
// more blocks than fit at once, are errors that say so.
func TestClusterStops(t *testing.T) {
	for path, req := range clusterPaths(t) {
		for launch, want := range map[string]string{
			`dsmem_hist<<<6, 128, 0, cluster(4)>>>(in=arange(8192):u32, out=zeros(512):u32, n=8192)`:                                                       "not a multiple of the cluster (4,1,1) in x",
			`ring<<<6, 128>>>(out=zeros(3072):u32, spec=zeros(128):u32, addrs=zeros(32):u32)`:                                                              "not a multiple of the cluster (4,1,1) in x",
			`grid_reduce<<<1057, 256, cooperative>>>(in=arange(135168):u32, partial=zeros(1057):f32, out=zeros(270594):f32, count=zeros(1):u32, n=135168)`: "cooperative launch of 1057 blocks needs all 1057 resident at once; at most 1056 fit (8 blocks per SM on 132 SMs",
		} {
			t.Run(path, func(t *testing.T) {
				req.Launch = parseLaunch(t, launch, nil)
				_, err := analysis.Run(context.Background(), req)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s: %v, want an error containing %q", launch, err, want)
				}
			})
		}
	}
}
