import sys, struct, gzip; sys.path.insert(0,'/tmp/m1')
from load import *
import numpy as np
def mix64(z):
    z=z+np.uint64(0x9e3779b97f4a7c15)
    z=(z^(z>>np.uint64(30)))*np.uint64(0xbf58476d1ce4e5b9)
    z=(z^(z>>np.uint64(27)))*np.uint64(0x94d049bb133111eb)
    return z^(z>>np.uint64(31))
def stats(fn):
    d={}
    for l in open('sum/%s.stats'%fn):
        if l.startswith('#'): continue
        v=l.split(); d[int(v[0])]=(int(v[1],16),int(v[2],16))
    return d
refs={'rcp':lambda d:1/d,'rsqrt':lambda d:1/np.sqrt(d),'sqrt':np.sqrt,'ex2':np.exp2,'lg2':np.log2,'sin':np.sin,'cos':np.cos,'tanh':np.tanh}
sel=[('rcp.approx.f32',127),('rsqrt.approx.f32',127),('rsqrt.approx.f32',128),('sqrt.approx.f32',127),('sqrt.approx.f32',128),
     ('ex2.approx.f32',127),('ex2.approx.f32',383),('ex2.approx.f32',120),('lg2.approx.f32',127),('lg2.approx.f32',128),('lg2.approx.f32',126),
     ('sin.approx.f32',127),('sin.approx.f32',129),('cos.approx.f32',127),('cos.approx.f32',129),('tanh.approx.f32',126),('tanh.approx.f32',127),('tanh.approx.f32',129)]
STRIDE=1024
out=bytearray()
np.seterr(all='ignore')
for fn,b in sel:
    x,o,e=load(fn,b,refs[fn.split('.')[0]])
    if (e==127).any():
        lines=open('sum/exc_%s_%03d.txt'%(fn,b)).read().split('\n')
        tot=int([l for l in lines if l.startswith('# total')][0].split()[2])
        if tot>20000: print('skip',fn,b,tot); continue
        for l in lines:
            if l and not l.startswith('#'):
                i,v=l.split(); o[int(i,16)-(b<<23)]=int(v,16)
    idx=(np.uint64(b)<<np.uint64(23))+np.arange(1<<23,dtype=np.uint64)
    h=int(mix64((idx<<np.uint64(32))|o.astype(np.uint64)).sum(dtype=np.uint64))
    st=stats(fn)[b]
    print(fn,b,'outputs reconstructed','OK' if h==st[0] else 'MISMATCH')
    if h!=st[0]: continue
    s=o[::STRIDE]
    nm=fn.encode()
    out+=struct.pack('<B',len(nm))+nm+struct.pack('<HII',b,STRIDE,len(s))+s.astype('<u4').tobytes()
open('/work/wt/mufu/testdata/measured/mufu/samples.bin.gz','wb').write(gzip.compress(bytes(out),9))
print(len(out))
