package arch

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const golden = "../../testdata/golden/"

// ncuArch is one entry of ncu_occupancy_gpu_data.json.
type ncuArch struct {
	CCMajor        int    `json:"cc_major"`
	CCMinor        int    `json:"cc_minor"`
	SMVersion      string `json:"sm_version"`
	Family         string `json:"chip_family"`
	ThreadsPerWarp int    `json:"threads_per_warp"`
	MaxWarps       int    `json:"max_warps_per_sm"`
	MaxThreads     int    `json:"max_threads_per_sm"`
	MaxBlocks      int    `json:"max_thread_blocks_per_sm"`
	Barriers       int    `json:"block_barriers_per_sm"`
	SmemPerSM      int    `json:"smem_per_sm"`
	RegsPerSM      int    `json:"registers_per_sm"`
	MaxRegsBlock   int    `json:"max_regs_per_block"`
	MaxRegsThread  int    `json:"max_regs_per_thread"`
	RegUnit        int    `json:"reg_allocation_unit_size"`
	RegGran        string `json:"reg_allocation_granularity"`
	SmemUnit       int    `json:"shared_mem_allocation_unit_size"`
	WarpGran       int    `json:"warps_allocation_granularity"`
	MaxBlockSize   int    `json:"max_thread_block_size"`
	SmemConfigs    []int  `json:"shared_mem_size_configs"`
}

func loadNCU(t *testing.T) map[string]ncuArch {
	t.Helper()
	raw, err := os.ReadFile(golden + "ncu_occupancy_gpu_data.json")
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("parse golden: %v", err)
	}
	out := map[string]ncuArch{}
	for _, v := range m {
		var a ncuArch
		if json.Unmarshal(v, &a) != nil { // error strings for unknown versions
			continue
		}
		out[a.SMVersion] = a
	}
	return out
}

func TestAgainstNsightCompute(t *testing.T) {
	ncu := loadNCU(t)
	for _, name := range Names() {
		s, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		n, ok := ncu[name]
		if !ok {
			t.Fatalf("%s missing from golden", name)
		}
		cfg := append([]int(nil), n.SmemConfigs...)
		sort.Ints(cfg)
		checks := []struct {
			what      string
			got, want any
		}{
			{"major", s.Major, n.CCMajor}, {"minor", s.Minor, n.CCMinor}, {"family", s.Family, n.Family},
			{"warp size", s.WarpSize, n.ThreadsPerWarp}, {"warps", s.MaxWarpsPerSM, n.MaxWarps},
			{"threads", s.MaxThreadsPerSM, n.MaxThreads}, {"blocks", s.MaxBlocksPerSM, n.MaxBlocks},
			{"barriers", s.BarriersPerSM, n.Barriers}, {"smem/SM", s.SharedPerSM, n.SmemPerSM},
			{"regs/SM", s.RegistersPerSM, n.RegsPerSM}, {"regs/block", s.MaxRegsPerBlock, n.MaxRegsBlock},
			{"regs/thread", s.MaxRegsPerThread, n.MaxRegsThread}, {"reg unit", s.RegAllocUnit, n.RegUnit},
			{"reg gran", s.RegAllocGranularity, n.RegGran}, {"smem unit", s.SharedAllocUnit, n.SmemUnit},
			{"warp gran", s.WarpAllocGranularity, n.WarpGran}, {"block size", s.MaxThreadsPerBlock, n.MaxBlockSize},
			{"carveouts", fmt.Sprint(s.Carveouts), fmt.Sprint(cfg)},
			{"warps*size", s.MaxWarpsPerSM * s.WarpSize, s.MaxThreadsPerSM},
			{"largest carveout", s.Carveouts[len(s.Carveouts)-1], s.SharedPerSM},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s %s: got %v, want %v", name, c.what, c.got, c.want)
			}
		}
		if s.SharedPerBlockOptIn+s.ReservedSharedPerBlock != s.SharedPerSM {
			t.Errorf("%s: opt-in %d + reserved %d != smem/SM %d", name, s.SharedPerBlockOptIn, s.ReservedSharedPerBlock, s.SharedPerSM)
		}
		if s.L1Bytes(s.SharedPerSM) <= 0 || s.L2Bytes <= 0 || s.SMs <= 0 || s.ClockMHz <= 0 || s.MemBandwidthGBs <= 0 {
			t.Errorf("%s: missing memory-system figures: %+v", name, s)
		}
	}
}

func TestH200DeviceProps(t *testing.T) {
	raw, err := os.ReadFile(golden + "device_props.txt")
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	line := strings.SplitN(string(raw), "\n", 2)[0]
	re := regexp.MustCompile(`(\w+) (\d+)`)
	props := map[string]int{}
	for _, m := range re.FindAllStringSubmatch(line, -1) {
		v, _ := strconv.Atoi(m[2])
		props[m[1]] = v
	}
	s, err := Lookup("sm_90")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"maxTPSM": s.MaxThreadsPerSM, "regsSM": s.RegistersPerSM, "smemSM": s.SharedPerSM,
		"optin": s.SharedPerBlockOptIn, "reserved": s.ReservedSharedPerBlock, "smemBlock": s.SharedPerBlock,
		"numSms": s.SMs, "l2": s.L2Bytes}
	for k, v := range want {
		got, ok := props[k]
		if !ok {
			t.Errorf("device_props.txt lacks %s", k)
			continue
		}
		if got != v {
			t.Errorf("H200 %s: props %d, spec %d", k, got, v)
		}
	}
	if !strings.Contains(line, "H200") || !strings.Contains(s.Part, "H200") {
		t.Errorf("reference part %q vs %q", s.Part, line)
	}
}

func TestLookupSpellings(t *testing.T) {
	for in, want := range map[string]string{"sm_90": "sm_90", "sm_90a": "sm_90", "SM_90A": "sm_90", "compute_80": "sm_80",
		"9.0": "sm_90", "86": "sm_86", "sm_100f": "sm_100", "sm_120a": "sm_120", " sm_75 ": "sm_75"} {
		s, err := Lookup(in)
		if err != nil {
			t.Errorf("Lookup(%q): %v", in, err)
			continue
		}
		if s.Name != want {
			t.Errorf("Lookup(%q) = %s, want %s", in, s.Name, want)
		}
	}
	for _, bad := range []string{"", "sm_70", "sm_", "gpu", "sm_9x0", "sm_900"} {
		_, err := Lookup(bad)
		if err == nil {
			t.Errorf("Lookup(%q) succeeded", bad)
			continue
		}
		if !strings.Contains(err.Error(), "sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_120") {
			t.Errorf("error does not list names: %v", err)
		}
	}
}

func TestLookupReturnsCopy(t *testing.T) {
	a, _ := Lookup("sm_90")
	a.Carveouts[0] = 12345
	a.SMs = 1
	b, _ := Lookup("sm_90")
	if b.Carveouts[0] == 12345 || b.SMs == 1 {
		t.Fatal("Lookup exposed the database")
	}
}

func TestAlignCarveout(t *testing.T) {
	s, _ := Lookup("sm_90")
	for _, c := range []struct{ in, want int }{{0, 0}, {1, 8 * KB}, {8 * KB, 8 * KB}, {50176, 64 * KB}, {100*KB + 1, 132 * KB}, {228 * KB, 228 * KB}} {
		got, ok := s.AlignCarveout(c.in)
		if !ok || got != c.want {
			t.Errorf("AlignCarveout(%d) = %d,%v want %d", c.in, got, ok, c.want)
		}
	}
	if _, ok := s.AlignCarveout(228*KB + 1); ok {
		t.Error("carveout above the maximum accepted")
	}
	if got := s.L1Bytes(228 * KB); got != 28*KB {
		t.Errorf("L1 at max carveout = %d, want 28 KB", got)
	}
}
