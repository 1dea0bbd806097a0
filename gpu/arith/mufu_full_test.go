package arith

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestMufuAllBuckets is the full run behind scripts/mufu/fullcheck.sh: for
// the functions in KS_MUFU_EXPLORE (comma-separated) and the buckets in
// KS_MUFU_BUCKETS ("all" or comma-separated exponents, both signs) it reports
// which buckets the model reproduces bit for bit. Skipped unless set.
func TestMufuAllBuckets(t *testing.T) {
	if os.Getenv("KS_MUFU_EXPLORE") == "" {
		t.Skip("set KS_MUFU_EXPLORE=rcp,rsqrt,... (scripts/mufu/fullcheck.sh; hours of CPU)")
	}
	names := strings.Split(os.Getenv("KS_MUFU_EXPLORE"), ",")
	bks := []int{0, 1, 50, 100, 110, 120, 125, 126, 127, 128, 129, 133, 140, 150, 151, 152, 153, 160, 200, 253, 254, 255}
	if s := os.Getenv("KS_MUFU_BUCKETS"); s == "all" {
		bks = nil
		for b := 0; b < 256; b++ {
			bks = append(bks, b)
		}
	} else if s != "" {
		bks = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(f)
			bks = append(bks, n)
		}
	}
	for _, name := range names {
		st := loadMufuStats(t, name)
		f := unaryEval(t, name)
		var mu sync.Mutex
		var wg sync.WaitGroup
		res := map[int]bool{}
		sem := make(chan bool, runtime.NumCPU())
		for _, b0 := range bks {
			for _, b := range []int{b0, b0 + 256} {
				wg.Add(1)
				sem <- true
				go func(b int) {
					defer wg.Done()
					h := bucketHash(b, f)
					mu.Lock()
					res[b] = h == st.hash[b]
					mu.Unlock()
					<-sem
				}(b)
			}
		}
		wg.Wait()
		var ok, no []string
		for _, b0 := range bks {
			for _, b := range []int{b0, b0 + 256} {
				s := bucketName(b)
				if res[b] {
					ok = append(ok, s)
				} else {
					no = append(no, s+"("+itoa(int(st.hist[b][4]*1000>>23))+")")
				}
			}
		}
		t.Logf("%s exact: %v\n   differ (device CR-exact per mille): %v", name, ok, no)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
