package magics

import (
	"strings"
	"testing"
)

// TestLaunchClusterCooperative: cluster(x,y,z) and cooperative in <<<...>>>.
func TestLaunchClusterCooperative(t *testing.T) {
	for _, c := range []struct {
		in      string
		cluster [3]int
		coop    bool
		shared  int
	}{
		{"k<<<8, 128, 0, cluster(2,1,1)>>>(a=zeros(4))", [3]int{2, 1, 1}, false, 0},
		{"k<<<8, 128, cluster(4)>>>(a=zeros(4))", [3]int{4, 1, 1}, false, 0},
		{"k<<<dim3(4,4), 64, 1024, cluster(2, 2)>>>(a=zeros(4))", [3]int{2, 2, 1}, false, 1024},
		{"k<<<264, 256, cooperative>>>(a=zeros(4))", [3]int{}, true, 0},
		{"k<<<264, 256, 512, 0, cluster(2,1,1), cooperative>>>(a=zeros(4))", [3]int{2, 1, 1}, true, 512},
	} {
		l, err := ParseLaunch(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if l.Cluster != c.cluster || l.Cooperative != c.coop || l.Shared != c.shared {
			t.Errorf("%s: cluster %v cooperative %v shared %d, want %v %v %d", c.in, l.Cluster, l.Cooperative, l.Shared, c.cluster, c.coop, c.shared)
		}
	}
	for in, want := range map[string]string{
		"k<<<8, 128, cluster(2), 64>>>()":           "after cluster(...)",
		"k<<<8, 128, cluster>>>()":                  "expected cluster(x)",
		"k<<<8, 128, cluster(4,4,2)>>>()":           "more than the 16",
		"k<<<8, 128, cooperative, cooperative>>>()": "given twice",
		"k<<<8, 128, cluster(0)>>>()":               "expected cluster(x)",
	} {
		_, err := ParseLaunch(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", in, err, want)
		}
	}
}
