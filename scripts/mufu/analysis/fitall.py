import sys; sys.path.insert(0,'/tmp/m1')
from lp import *
fn=sys.argv[1]; bucket=int(sys.argv[2]); k=int(sys.argv[3]); deg=int(sys.argv[4]); scale=float(sys.argv[5])
refs={'rcp':lambda d:1/d,'rsqrt':lambda d:1/np.sqrt(d),'sqrt':np.sqrt,'ex2':np.exp2,'lg2':np.log2}
x,out,e=load(fn,bucket,refs[fn.split('.')[0]])
Y=out.view(np.float32).astype(np.float64)*scale
m=np.arange(1<<23); sh=23-k
bad=0; ds=[]
coef=[]
for s in range(1<<k):
    idx=slice(s<<sh,(s+1)<<sh)
    t=(m[idx]&((1<<sh)-1))/(1<<sh)
    y=Y[idx]
    c,d=fit(t,y-0.5,y+0.5,deg)
    p=np.polyval(c[:deg+1][::-1],t)
    bad+=(np.floor(p+0.5)!=y).sum(); ds.append(d)
    coef.append(c)
print(fn,bucket,k,deg,'mismatch',bad,'of',1<<23,'min delta',min(ds),'segments with delta<0',sum(1 for d in ds if d<0))
np.save('/tmp/m1/coef_%s_%d_%d_%d.npy'%(fn,bucket,k,deg),np.array(coef))
