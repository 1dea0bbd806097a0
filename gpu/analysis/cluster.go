package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kernelscope/kernelscope/gpu/launch"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
)

// cudaClusterDims finds the __cluster_dims__(x, y, z) of each __global__
// function of a CUDA source (clang-19 ignores the attribute, so its PTX has no
// .reqnctapercluster: the launch takes the shape from the source instead).
func cudaClusterDims(src string) map[string][3]int {
	s := expandMacros(stripComments(src))
	out := map[string][3]int{}
	for {
		i := indexWord(s, "__global__")
		if i < 0 {
			return out
		}
		s = s[i+len("__global__"):]
		name, open, ok := kernelName(s)
		if !ok {
			continue
		}
		head := s[:open]
		if j := indexWord(head, "__cluster_dims__"); j >= 0 {
			rest := head[j+len("__cluster_dims__"):]
			if k := strings.IndexByte(rest, '('); k >= 0 {
				if e := matchParen(rest, k); e > k {
					d := [3]int{1, 1, 1}
					good := true
					for n, f := range strings.Split(rest[k+1:e], ",") {
						v, err := strconv.Atoi(strings.TrimSpace(f))
						if err != nil || v <= 0 || n > 2 {
							good = false
							break
						}
						d[n] = v
					}
					if good {
						out[name] = d
					}
				}
			}
		}
		s = s[open:]
	}
}

// clusterConfig sets the cluster shape and the cooperative launch of cfg from the
// launch (cluster(...), cooperative), else from the CUDA source's __cluster_dims__
// when the PTX does not carry it; a cooperative launch gets the residency limit
// from the occupancy.
func clusterConfig(cfg *sim.Config, req Request, k *ptx.Func, occ *report.Occupancy, sms int, rep *report.Report) {
	l := req.Launch
	if l == nil {
		l = &launch.Launch{}
	}
	cfg.Cluster, cfg.Cooperative = l.Cluster, l.Cooperative
	if cfg.Cluster == [3]int{} && k.ReqNCTAPerCluster == [3]int{} && !req.IsPTX && len(req.Source) > 0 {
		if d, ok := cudaClusterDims(string(req.Source))[demangle(k.Name)]; ok {
			cfg.Cluster = d
			rep.Notes = append(rep.Notes, fmt.Sprintf("clusters of %d×%d×%d blocks from __cluster_dims__ in the source (the PTX does not carry it)", d[0], d[1], d[2]))
		}
	}
	if d := cfg.Cluster; d[0]*max(d[1], 1)*max(d[2], 1) > 1 {
		n := 1
		for i := range d {
			n *= max(d[i], 1)
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("clusters of %d blocks, each run co-scheduled; the occupancy is per SM: how many clusters fit on the GPU at once (a cluster stays in one GPC) is not modelled", n))
	}
	if cfg.Cooperative && occ != nil {
		per, why := occ.ActiveBlocksPerSM, strings.Join(occ.LimitingFactors, ", ")
		if !strings.HasPrefix(rep.Registers.Source, "ptxas") {
			// Registers estimated from PTX liveness overshoot ptxas's count (grid_reduce:
			// 6 blocks per SM estimated, 8 on the H200): do not refuse a launch on them.
			per, why = 0, ""
			for _, k := range []string{"warps", "blocks", "shared_memory", "barriers"} {
				if v, ok := occ.Limits[k]; ok && v > 0 && (per == 0 || v < per) {
					per, why = v, k
				} else if ok && v == per {
					why += ", " + k
				}
			}
			why = strings.ReplaceAll(why, "_", " ") + "; registers not counted: they are estimated from the PTX, and ptxas's count decides on a GPU"
		}
		if per > 0 {
			cfg.MaxResident = per * sms
			cfg.MaxResidentWhy = fmt.Sprintf("%d blocks per SM on %d SMs, occupancy limited by %s", per, sms, why)
		}
	}
}
