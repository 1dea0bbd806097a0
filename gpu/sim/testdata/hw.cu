#include <cstdio>
__global__ void k1(int*o){int t=threadIdx.x;if(t>=40)return;__shared__ int s[64];s[t]=t;__syncthreads();o[t]=s[(t+1)%40];}
__global__ void k2(int*o){int t=threadIdx.x;__shared__ int s[64];s[t]=t*2;if(t%32<16){o[t]=1;__syncthreads();o[t]+=s[63-t];}else{o[t]=2;__syncthreads();o[t]+=s[63-t];}}
__global__ void k3(){int t=threadIdx.x;printf("[%d|%5ld%%|%.2f|%g|%g|%x|%c|%s|%e]\n",t,(long)t*1000,t*1.5,0.0001*t,1e7*t,255+t,'A'+t,"hi",t*3.25);}
int main(){int*o;cudaMalloc(&o,256);int h[64];
k1<<<1,64>>>(o);printf("k1 %s\n",cudaGetErrorString(cudaDeviceSynchronize()));cudaMemcpy(h,o,160,cudaMemcpyDeviceToHost);for(int i=0;i<40;i++)printf("%d ",h[i]);printf("\n");
k2<<<1,64>>>(o);printf("k2 %s\n",cudaGetErrorString(cudaDeviceSynchronize()));cudaMemcpy(h,o,256,cudaMemcpyDeviceToHost);for(int i=0;i<64;i++)printf("%d ",h[i]);printf("\n");
k3<<<1,2>>>();cudaDeviceSynchronize();return 0;}
