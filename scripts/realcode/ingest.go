package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxStored is the largest output buffer kept as bytes in testdata (larger ones: sha256 and size).
const maxStored = 64 << 10

// Truth is testdata/realcode/h200/results.json: what the H200 said, without third-party code.
type Truth struct {
	Command string                  `json:"command"`
	NVCC    string                  `json:"nvcc"`
	GPU     string                  `json:"gpu"`
	Clock   string                  `json:"clock,omitempty"` // ncu's --clock-control for the counters
	Kernels map[string]*KernelTruth `json:"kernels"`
}

// KernelTruth is one kernel's ground truth.
type KernelTruth struct {
	Built      bool                   `json:"built"`
	BuildError string                 `json:"build_error,omitempty"` // nvcc's first error message
	Ran        bool                   `json:"ran"`
	RunError   string                 `json:"run_error,omitempty"`
	PTXSHA256  string                 `json:"ptx_sha256,omitempty"`
	Buffers    map[string]BufferTruth `json:"buffers,omitempty"`
	NCU        map[string]string      `json:"ncu,omitempty"`
}

// BufferTruth is one buffer after the launch on the H200.
type BufferTruth struct {
	SHA256  string `json:"sha256"`
	Size    int    `json:"size"`
	Changed bool   `json:"changed"`          // differs from the input
	Stored  string `json:"stored,omitempty"` // path under testdata/realcode/h200 when kept as bytes
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// firstError is the first line of a log that reports an error, without source excerpts.
func firstError(log string) string {
	for _, l := range strings.Split(log, "\n") {
		if i := strings.Index(l, "error"); i >= 0 {
			l = strings.TrimSpace(l)
			if j := strings.Index(l, "/src/"); j >= 0 {
				l = l[j+5:]
			}
			if len(l) > 200 {
				l = l[:200] + "..."
			}
			return l
		}
	}
	return strings.TrimSpace(log)
}

func readKV(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := map[string]string{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		p := strings.Fields(s.Text())
		if len(p) == 2 {
			m[p[1]] = p[0]
		}
	}
	return m, s.Err()
}

// Ingest turns the device's unpacked results (raw) into testdata/realcode/h200. With only set,
// raw holds a device run of that one kernel (RC_DEVICE=a subset folder), merged into the stored
// results; the toolkit and GPU versions must then be those of the stored run.
func Ingest(m *Manifest, raw, data, h200, only string) error {
	t := &Truth{Command: "bash scripts/real_code.sh --device (runs scripts/realcode/device.sh on the H200)", Kernels: map[string]*KernelTruth{}}
	if only != "" {
		old, err := LoadTruth(h200)
		if err != nil {
			return fmt.Errorf("ingest -only %s: %w", only, err)
		}
		t = old
	}
	nvcc, gpu, clock := t.NVCC, t.GPU, t.Clock
	if b, err := os.ReadFile(filepath.Join(raw, "nvcc_version.txt")); err == nil {
		l := strings.Split(strings.TrimSpace(string(b)), "\n")
		t.NVCC = l[len(l)-2]
	}
	if b, err := os.ReadFile(filepath.Join(raw, "gpu.txt")); err == nil {
		t.GPU = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile(filepath.Join(raw, "ncu_clock.txt")); err == nil {
		t.Clock = strings.TrimSpace(string(b))
	} else {
		t.Clock = "" // runs before ncu_clock.txt: ncu's default, --clock-control base
	}
	if only != "" && (t.NVCC != nvcc || t.GPU != gpu || t.Clock != clock) {
		return fmt.Errorf("ingest -only %s: this run's toolkit/GPU/clocks (%s; %s; %s) differ from the stored run's (%s; %s; %s): remake them all", only, t.NVCC, t.GPU, t.Clock, nvcc, gpu, clock)
	}
	outSHA, err := readKV(filepath.Join(raw, "out_sha256.txt"))
	if err != nil {
		return err
	}
	ptxSHA, _ := readKV(filepath.Join(raw, "ptx_sha256.txt"))
	pids, _ := readKV(filepath.Join(raw, "ncu_pids.txt")) // id -> pid
	byPID := map[string]string{}
	for id, pid := range pids {
		byPID[pid] = id
	}
	// ncu/ID.csv, one per binary (older runs: one ncu.csv)
	csvs, _ := filepath.Glob(filepath.Join(raw, "ncu", "*.csv"))
	if len(csvs) == 0 {
		csvs = []string{filepath.Join(raw, "ncu.csv")}
	}
	var rows []map[string]string
	for _, p := range csvs {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(b), "\"ID\"") {
			continue // no kernel profiled (the launch failed or ncu timed out)
		}
		r, err := NCURows(strings.NewReader(string(b)))
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rows = append(rows, r...)
	}
	ncuOf := map[string]map[string]string{}
	for _, r := range rows {
		id := byPID[r["Process ID"]]
		if id == "" {
			id = r["Process Name"]
		}
		keep := map[string]string{"kernel_name": r["Kernel Name"]}
		for k, v := range r {
			if keepMetric(k) {
				keep[k] = v
			}
		}
		ncuOf[id] = keep
	}
	if err := os.MkdirAll(filepath.Join(h200, "out"), 0o755); err != nil {
		return err
	}
	for i := range m.Kernels {
		k := &m.Kernels[i]
		if only != "" && k.ID != only {
			continue
		}
		kt := &KernelTruth{Buffers: map[string]BufferTruth{}}
		t.Kernels[k.ID] = kt
		clog, _ := os.ReadFile(filepath.Join(raw, "log", k.ID+".compile.txt"))
		kt.Built = !strings.Contains(string(clog), "exit ") && len(clog) >= 0
		if _, err := os.Stat(filepath.Join(raw, "log", k.ID+".compile.txt")); err != nil {
			kt.Built = false
			kt.BuildError = "not compiled on the device"
		} else if !kt.Built {
			kt.BuildError = firstError(string(clog))
		}
		rlog, _ := os.ReadFile(filepath.Join(raw, "log", k.ID+".run.txt"))
		kt.Ran = kt.Built && strings.Contains(string(rlog), "exit 0")
		if kt.Built && !kt.Ran {
			kt.RunError = firstError(string(rlog))
		}
		kt.PTXSHA256 = ptxSHA[k.ID+".ptx"]
		kt.NCU = ncuOf[k.ID]
		if !kt.Ran {
			continue
		}
		for _, a := range k.Args {
			if !a.Buffer {
				continue
			}
			name := k.ID + "." + a.Name
			s, ok := outSHA[name+".out.bin"]
			if !ok {
				return fmt.Errorf("%s: ran but no hash of %s.out.bin", k.ID, name)
			}
			bt := BufferTruth{SHA256: s, Size: a.Bytes()}
			in, err := os.ReadFile(filepath.Join(data, name+".in.bin"))
			if err != nil {
				return err
			}
			bt.Changed = sha(in) != s
			if bt.Changed && a.Bytes() <= maxStored {
				b, err := os.ReadFile(filepath.Join(raw, "out", name+".out.bin"))
				if err != nil {
					return err
				}
				if sha(b) != s {
					return fmt.Errorf("%s: %s.out.bin does not match its hash", k.ID, name)
				}
				bt.Stored = "out/" + name + ".out.bin"
				if err := os.WriteFile(filepath.Join(h200, bt.Stored), b, 0o644); err != nil {
					return err
				}
			}
			kt.Buffers[a.Name] = bt
		}
	}
	b, err := json.MarshalIndent(t, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(h200, "results.json"), append(b, '\n'), 0o644)
}

// LoadTruth reads results.json.
func LoadTruth(h200 string) (*Truth, error) {
	b, err := os.ReadFile(filepath.Join(h200, "results.json"))
	if err != nil {
		return nil, err
	}
	var t Truth
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("results.json: %w", err)
	}
	return &t, nil
}

func sortedKeys[V any](m map[string]V) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

// keepMetric selects the Nsight Compute values stored: the requested counters and the launch's
// registers and shared memory (ncu's raw page has hundreds of device attributes besides).
func keepMetric(k string) bool {
	switch k {
	case "sm__cycles_elapsed.max", "sm__cycles_elapsed.avg.per_second", "gpu__time_duration.sum", "launch__registers_per_thread",
		"launch__shared_mem_per_block_static", "launch__shared_mem_per_block_dynamic":
		return true
	}
	return (strings.HasPrefix(k, "l1tex__") || strings.HasPrefix(k, "lts__") || strings.HasPrefix(k, "smsp__")) &&
		(strings.HasSuffix(k, ".sum") || strings.HasSuffix(k, ".pct"))
}
