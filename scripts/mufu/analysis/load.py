import numpy as np
def ordv(b):
    b=b.astype(np.int64)
    return np.where(b>=0x80000000, -(b&0x7fffffff)-1, b)
def unord(o):
    return np.where(o<0, (-(o+1))|0x80000000, o).astype(np.uint32)
def load(fn, bucket, reff):
    e=np.fromfile('e/err_%s_%03d.i8'%(fn,bucket),dtype=np.int8).astype(np.int64)
    x=(np.arange(1<<23,dtype=np.uint32)+(bucket<<23)).view(np.float32)
    r=reff(x.astype(np.float64)).astype(np.float32).view(np.uint32)
    out=unord(ordv(r)+e)
    return x,out,e
