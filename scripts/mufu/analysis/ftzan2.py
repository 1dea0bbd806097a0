import struct, collections
from fractions import Fraction as F
def f32(b): return struct.unpack('<f',struct.pack('<I',b))[0]
def sub(b): return (b&0x7f800000)==0 and (b&0x7fffffff)!=0
MN=F(1,2**126)
res=collections.defaultdict(collections.Counter)
for l in open('sum/ftz_cases.txt'):
    if l.startswith('#'): continue
    op,a,b,c,r=l.split(); a,b,c,r=[int(v,16) for v in (a,b,c,r)]
    if op.startswith(('ex2','rcp')): continue
    if op.startswith('cvt'):
        d=struct.unpack('<d',struct.pack('<Q',b<<32|a))[0]; ex=F(d)
    else:
        if sub(a) or sub(b) or sub(c): continue
        if op.startswith('mul'): ex=F(f32(a))*F(f32(b))
        elif op.startswith('fma'): ex=F(f32(a))*F(f32(b))+F(f32(c))
        else: ex=F(f32(a))/F(f32(b))
    g=(MN-ex)/F(1,2**152)  # distance below MN in units of 2^-152
    cls = 'ge MN' if ex>=MN else ('d<2^-151' if g<2 else 'd==2^-151' if g==2 else 'd<2^-150' if g<4 else 'd==2^-150' if g==4 else 'd<2^-149' if g<8 else 'far')
    rv=F(f32(r))
    out='MN' if rv==MN else '0' if rv==0 else 'sub' if rv<MN else 'other'
    res[op][(cls,out)]+=1
for op in res: print(op.ljust(20), sorted(res[op].items()))
