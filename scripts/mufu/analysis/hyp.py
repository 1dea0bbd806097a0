import sys; sys.path.insert(0,'/tmp/m1')
from load import *
from scipy.optimize import linprog
x,out,e=load('rcp.approx.f32',127,lambda d:1/d)
Y=out.view(np.float32).astype(np.float64)*2**24
m=np.arange(1<<23)
def fitcols(cols, L, U):
    n=len(L); V=np.stack(cols,1)
    A=np.vstack([np.hstack([-V,np.ones((n,1))]),np.hstack([V,np.ones((n,1))])]); b=np.concatenate([-L,U])
    c=np.zeros(V.shape[1]+1); c[-1]=-1
    r=linprog(c,A_ub=A,b_ub=b,bounds=[(None,None)]*(V.shape[1]+1),method='highs')
    return r.x[-1] if r.status==0 else None
for k in [6,7,8]:
  sh=23-k
  for s in [37<<(k-7) if k>=7 else 18]:
    idx=slice(s<<sh,(s+1)<<sh); i=m[idx]&((1<<sh)-1); t=i/(1<<sh); y=Y[idx]
    res=[]
    for p in range(4,sh+1):
        tq=np.floor(t*2**p)/2**p
        d=fitcols([np.ones_like(t),t,tq*tq],y-0.5,y+0.5)
        res.append((p,round(d,4) if d is not None else None))
    print('k',k,'seg',s,res)
