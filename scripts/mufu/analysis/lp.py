import sys; sys.path.insert(0,'/tmp/m1')
from load import *
from scipy.optimize import linprog
def fit(t, L, U, deg=2):
    # maximize d s.t. L + d <= p(t) <= U - d ; p(t)=sum c_j t^j
    n=len(t)
    V=np.vander(t, deg+1, increasing=True)
    # center for conditioning
    A1=np.hstack([-V, np.ones((n,1))])   # -p + d <= -L
    A2=np.hstack([V, np.ones((n,1))])    #  p + d <= U
    A=np.vstack([A1,A2]); b=np.concatenate([-L,U])
    c=np.zeros(deg+2); c[-1]=-1
    r=linprog(c,A_ub=A,b_ub=b,bounds=[(None,None)]*(deg+2),method='highs')
    if r.status!=0:
        r=linprog(c,A_ub=A,b_ub=b,bounds=[(None,None)]*(deg+2),method='highs-ipm')
    if r.status!=0:
        print('lp status',r.status,r.message)
    return r.x, (r.x[-1] if r.status==0 else None)
