// host.c: the C model (model.h) on the host, per-bucket checksums of all 2^32
// inputs in the device's format (sum of mix64(in << 32 | out)), to compare
// with testdata/measured/mufu/stats/tanh.approx.f32.stats.gz: proves model.h
// equals gpu/arith's model before tanhcheck.cu uses it on the device.
// Build (repository root): bash scripts/mufu/tanhcheck/tab.sh /tmp/t/tab.h;
// cc -O2 -I/tmp/t -o host scripts/mufu/tanhcheck/host.c; ./host > sums.txt;
// ./host tab16.bin compares the 16-bit forms with testdata's tab16.bin.gz.
#include <stdio.h>
#define TANH_MEM static
#include "tab.h"
#include "model.h"

static unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// check16 compares the 16-bit model with the H200's tanh.approx.f16 and
// .bf16 in tab16.bin (testdata/measured/mufu/tab16.bin.gz, gunzipped).
static int check16(const char *path) {
  static unsigned short t[4 * 65536];
  FILE *f = fopen(path, "rb");
  if (!f || fread(t, 2, 4 * 65536, f) != 4 * 65536) { fprintf(stderr, "%s: short\n", path); return 1; }
  fclose(f);
  int bad[2] = {0, 0};
  for (unsigned i = 0; i < 65536; i++) {
    unsigned short mh = trunc16(tanh_model(widen16((unsigned short)i)), 0), mb = trunc16(tanh_model(i << 16), 1);
    unsigned short h = t[65536 + i], b = t[3 * 65536 + i];
    if (mh != h && !((mh & 0x7fff) > 0x7c00 && (h & 0x7fff) > 0x7c00)) bad[0]++;
    if (mb != b && !((mb & 0x7fff) > 0x7f80 && (b & 0x7fff) > 0x7f80)) bad[1]++;
  }
  printf("tanh.approx.f16: %d of 65536 differ; tanh.approx.bf16: %d\n", bad[0], bad[1]);
  return bad[0] || bad[1];
}

int main(int argc, char **argv) {
  if (argc > 1) return check16(argv[1]);
  for (unsigned b = 0; b < 512; b++) {
    unsigned long long h = 0;
    for (unsigned i = 0; i < 1u << 23; i++) {
      unsigned x = b << 23 | i;
      h += mix64((unsigned long long)x << 32 | tanh_model(x));
    }
    printf("%u %016llx\n", b, h);
  }
  return 0;
}
