// search.c: recovers the H200's MUFU.RCP / RSQ / SQRT interpolation tables from the
// exhaustive outputs of one binade (issue 18; docs/special-functions.md section 3).
// Model, per segment j of 2^n inputs (t = the low n mantissa bits):
//   P = C0 + C1*t + C2*sq(t),  result significand Y = floor(P / 2^G)
//   sq(t) = (sum of the folded squarer's partial-product bits of weight >= 2^W) >> Q
// For each (C1, C2) in a window around the Chebyshev 3-node quadratic of the exact
// function, the C0 that reproduce every output form an interval (intersection over
// the segment's inputs); the first input order is bit-reversed so wrong candidates
// fail within a few inputs. Prints one line per segment to TABLE:
//   j found C0lo C0hi C1 C2 number-of-(C1,C2)-solutions
// Usage: search OUT.u32 FN(0 rcp,1 rsqrt,2 sqrt) BUCKET n G W Q R1 R2 VERBOSE [TABLE]
// Env: SKIP0=1 ignores t=0 of segment 0 (rsqrt(1) is exact, a special case);
//      HOLD=1 fits on even t only and counts mismatches on all t (MID=1: C0 mid-interval).
// OUT.u32: the 2^23 f32 outputs of the binade, little-endian (prep.py writes them).
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
typedef long long ll;
static int fn,S;
static double fx(double x){ return fn==0?1/x: fn==1?1/sqrt(x):sqrt(x);}
int main(int argc,char**argv){
  const char* file=argv[1]; fn=atoi(argv[2]); int bucket=atoi(argv[3]);
  int n=atoi(argv[4]), G=atoi(argv[5]), W=atoi(argv[6]), Q=atoi(argv[7]);
  int R1=atoi(argv[8]), R2=atoi(argv[9]); int verbose=atoi(argv[10]);
  const char* tab=argc>11?argv[11]:NULL; int skip0=getenv("SKIP0")!=NULL; int hold=getenv("HOLD")!=NULL; int holdbad=0;
  S = fn==2?23:24;
  uint32_t*out=malloc(4<<23); FILE*f=fopen(file,"rb"); if(fread(out,4,1<<23,f)!=(1<<23)) return 1; fclose(f);
  int N=1<<n, nseg=1<<(23-n);
  ll *sq=malloc(8*N), *Yo=malloc(8*N), *to=malloc(8*N), *sqo=malloc(8*N); int*ord=malloc(4*N);
  for(ll t=0;t<N;t++){ ll r=0;
    for(int i=0;i<n;i++) if((t>>i)&1){ if(2*i>=W) r+=1LL<<(2*i);
      for(int k=i+1;k<n;k++) if(((t>>k)&1) && i+k+1>=W) r+=1LL<<(i+k+1); }
    sq[t]=r>>Q; }
  for(int i=0;i<N;i++){ int r=0; for(int k=0;k<n;k++) if((i>>k)&1) r|=1<<(n-1-k); ord[i]=r; }
  FILE*ft=tab?fopen(tab,"w"):NULL;
  int nfeas=0;
  for(int j=0;j<nseg;j++){
    for(int i=0;i<N;i++){ float v; memcpy(&v,&out[((ll)j<<n)+ord[i]],4); Yo[i]=(ll)ldexp((double)v,S); to[i]=ord[i]; sqo[i]=sq[ord[i]]; }
    double tn[3],vv[3];
    for(int q=0;q<3;q++){ double c=cos(M_PI*(2*q+1)/6); double t=(N-1)/2.0*(1+c); tn[q]=t;
      double x=ldexp(1.0+ldexp((double)((ll)j<<n)+t,-23), bucket-127); vv[q]=ldexp(fx(x),S); }
    double d01=(vv[1]-vv[0])/(tn[1]-tn[0]), d12=(vv[2]-vv[1])/(tn[2]-tn[1]);
    double c2=(d12-d01)/(tn[2]-tn[0]); double c1=d01-c2*(tn[0]+tn[1]);
    double sqs=(double)sq[N-1]/((double)(N-1)*(N-1));
    ll C1c=llround(ldexp(c1,G)), C2c=llround(ldexp(c2/sqs,G));
    int best=-1; ll bC1=0,bC2=0,blo=0,bhi=0; int found=0, nsol=0;
    for(ll C2=C2c-R2;C2<=C2c+R2;C2++) for(ll C1=C1c-R1;C1<=C1c+R1;C1++){
      ll lo=-(1LL<<62), hi=(1LL<<62); int i;
      for(i=0;i<N;i++){ if(skip0 && j==0 && to[i]==0) continue; if(hold && (to[i]&1)) continue; ll T=C1*to[i]+C2*sqo[i];
        ll l=(Yo[i]<<G)-T, h=((Yo[i]+1)<<G)-1-T;
        if(l>lo)lo=l;
        if(h<hi)hi=h;
        if(lo>hi) break; }
      if(i==N){ nsol++; if(!found){found=1;bC1=C1;bC2=C2;blo=lo;bhi=hi;best=i;} }
      else if(!found && i>best){best=i;bC1=C1;bC2=C2;}
    }
    if(found && hold){ for(int i=0;i<N;i++){ if(skip0&&j==0&&to[i]==0) continue; ll P=(getenv("MID")?(blo+bhi)/2:blo)+bC1*to[i]+bC2*sqo[i]; if((P>>G)!=Yo[i]) {holdbad++;} } }
    if(found) nfeas++;
    if(verbose||!found) printf("seg %d %s depth %d nsol %d C0=[%lld,%lld] C1=%lld (c %lld) C2=%lld (c %lld)\n",j,found?"OK":"--",best,nsol,blo,bhi,bC1,C1c,bC2,C2c);
    if(ft) fprintf(ft,"%d %d %lld %lld %lld %lld %d\n",j,found,blo,bhi,bC1,bC2,nsol);
  }
  printf("n%d G%d W%d Q%d feasible %d/%d holdout mismatches %d\n",n,G,W,Q,nfeas,nseg,holdbad);
}
