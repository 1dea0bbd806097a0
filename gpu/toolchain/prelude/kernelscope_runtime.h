// KernelScope: host-side names of the CUDA runtime API (types, enums and function
// declarations), so that a cell holding a whole program (main, cudaMalloc, kernel
// launches with <<<...>>>) compiles for the device. Nothing here is defined: only
// device code is compiled and simulated, and host functions are never emitted.
// Written from the CUDA Runtime API documentation; included by kernelscope_prelude.h.
#pragma clang system_header
#ifndef KERNELSCOPE_RUNTIME_H
#define KERNELSCOPE_RUNTIME_H

#define CUDART_VERSION CUDA_VERSION
#define __CUDART_API_VERSION CUDA_VERSION
#define CUDART_CB
#define __CUDA_RUNTIME_H__ 1
#define __CUDA_RUNTIME_API_H__ 1
#define __DRIVER_TYPES_H__ 1
#define __VECTOR_TYPES_H__ 1
#define __DEVICE_LAUNCH_PARAMETERS_H__ 1
#define __HOST_DEFINES_H__ 1 // Thrust undefines __host__/__device__ before cuda_runtime_api.h unless this is set

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorMisalignedAddress = 716,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999,
  // older and rarer names Thrust refers to; every value is the CUDA runtime API's (programs run host code: gpu/program)
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorAddressOfConstant = 22,
  cudaErrorTextureFetchFailed = 23,
  cudaErrorTextureNotBound = 24,
  cudaErrorSynchronizationError = 25,
  cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27,
  cudaErrorMixedDeviceExecution = 28,
  cudaErrorNotYetImplemented = 31,
  cudaErrorMemoryValueTooLarge = 32,
  cudaErrorMissingConfiguration = 52,
  cudaErrorPriorLaunchFailure = 53,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorMapBufferObjectFailed = 205,
  cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorSetOnActiveProcess = 708,
  cudaErrorAlreadyMapped = 208,
  cudaErrorApiFailureBase = 10000,
  cudaErrorDeviceAlreadyInUse = 216,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorDuplicateSurfaceName = 45,
  cudaErrorDuplicateTextureName = 44,
  cudaErrorDuplicateVariableName = 43,
  cudaErrorECCUncorrectable = 214,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorIncompatibleDriverContext = 49,
  cudaErrorLaunchFileScopedSurf = 67,
  cudaErrorLaunchFileScopedTex = 66,
  cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorNotPermitted = 800,
  cudaErrorOperatingSystem = 304,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorPeerAccessUnsupported = 217,
  cudaErrorProfilerDisabled = 5,
  cudaErrorSharedObjectInitFailed = 303,
  cudaErrorSharedObjectSymbolNotFound = 302,
  cudaErrorStartupFailure = 127,
  cudaErrorSyncDepthExceeded = 68,
  cudaErrorTooManyPeers = 711,
  cudaErrorUnsupportedLimit = 215,
};
typedef enum cudaError cudaError_t;
typedef enum cudaError CUresult;
#define CUDA_SUCCESS cudaSuccess

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1, cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1, cudaSharedMemBankSizeEightByte = 2 };
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

typedef struct CUstream_st *cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct cudaArray *cudaArray_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01

// The fields user code commonly reads; the layout is not the toolkit's.
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  size_t sharedMemPerBlockOptin;
  int cooperativeLaunch;
  int concurrentKernels;
  int asyncEngineCount;
  int unifiedAddressing;
  int managedMemory;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int maxDynamicSharedSizeBytes;
};

#define KS_HOST extern "C" __host__
KS_HOST cudaError_t cudaMalloc(void **p, size_t n);
KS_HOST cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int flags = cudaMemAttachGlobal);
KS_HOST cudaError_t cudaMallocHost(void **p, size_t n);
KS_HOST cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags);
KS_HOST cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int flags);
KS_HOST cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h);
KS_HOST cudaError_t cudaFree(void *p);
KS_HOST cudaError_t cudaFreeHost(void *p);
KS_HOST cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
KS_HOST cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind, cudaStream_t s = 0);
KS_HOST cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t w, size_t h, enum cudaMemcpyKind kind);
KS_HOST cudaError_t cudaMemset(void *p, int v, size_t n);
KS_HOST cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s = 0);
KS_HOST cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
KS_HOST cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s = 0);
KS_HOST cudaError_t cudaDeviceSynchronize(void);
KS_HOST cudaError_t cudaDeviceReset(void);
KS_HOST cudaError_t cudaThreadSynchronize(void);
KS_HOST cudaError_t cudaGetLastError(void);
KS_HOST cudaError_t cudaPeekAtLastError(void);
KS_HOST const char *cudaGetErrorString(cudaError_t e);
KS_HOST const char *cudaGetErrorName(cudaError_t e);
KS_HOST cudaError_t cudaGetDevice(int *d);
KS_HOST cudaError_t cudaSetDevice(int d);
KS_HOST cudaError_t cudaGetDeviceCount(int *n);
KS_HOST cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d);
KS_HOST cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d);
KS_HOST cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache c);
KS_HOST cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig c);
KS_HOST cudaError_t cudaStreamCreate(cudaStream_t *s);
KS_HOST cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags);
KS_HOST cudaError_t cudaStreamDestroy(cudaStream_t s);
KS_HOST cudaError_t cudaStreamSynchronize(cudaStream_t s);
KS_HOST cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags = 0);
KS_HOST cudaError_t cudaEventCreate(cudaEvent_t *e);
KS_HOST cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags);
KS_HOST cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
KS_HOST cudaError_t cudaEventSynchronize(cudaEvent_t e);
KS_HOST cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
KS_HOST cudaError_t cudaEventDestroy(cudaEvent_t e);
KS_HOST cudaError_t cudaEventQuery(cudaEvent_t e);
KS_HOST cudaError_t cudaStreamQuery(cudaStream_t s);
// Texture objects (CUB's TexObjInputIterator binds them in host code).
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1, cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
struct cudaChannelFormatDesc {
  int x, y, z, w;
  enum cudaChannelFormatKind f;
};
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1, cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
};
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
};
struct cudaResourceViewDesc;
KS_HOST cudaError_t cudaCreateTextureObject(cudaTextureObject_t *t, const struct cudaResourceDesc *r, const struct cudaTextureDesc *d,
                                            const struct cudaResourceViewDesc *v);
KS_HOST cudaError_t cudaDestroyTextureObject(cudaTextureObject_t t);
KS_HOST cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *f);
KS_HOST cudaError_t cudaFuncSetAttribute(const void *f, enum cudaFuncAttribute a, int v);
KS_HOST cudaError_t cudaFuncSetCacheConfig(const void *f, enum cudaFuncCache c);
KS_HOST cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *f, int block, size_t smem);
KS_HOST cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, const void *f, size_t smem = 0, int limit = 0);
KS_HOST cudaError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
KS_HOST cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t s);
KS_HOST cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t off = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
KS_HOST cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t off = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
KS_HOST cudaError_t cudaGetSymbolAddress(void **p, const void *sym);
KS_HOST cudaError_t cudaProfilerStart(void);
KS_HOST cudaError_t cudaProfilerStop(void);
// What clang's <<<grid, block, shmem, stream>>> lowers to in host code.
KS_HOST int cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t s = 0);
KS_HOST unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t s = 0);
#undef KS_HOST

// Templated conveniences of cuda_runtime.h.
template <class T> static __host__ cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> static __host__ cudaError_t cudaMallocManaged(T **p, size_t n, unsigned int flags = cudaMemAttachGlobal) {
  return cudaMallocManaged((void **)p, n, flags);
}
template <class T> static __host__ cudaError_t cudaMallocHost(T **p, size_t n) { return cudaMallocHost((void **)p, n); }
template <class T> static __host__ cudaError_t cudaMemcpyToSymbol(const T &sym, const void *src, size_t n, size_t off = 0,
                                                                  enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return cudaMemcpyToSymbol((const void *)&sym, src, n, off, kind);
}
template <class T> static __host__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
                                                                    enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return cudaMemcpyFromSymbol(dst, (const void *)&sym, n, off, kind);
}
template <class T> static __host__ cudaError_t cudaFuncSetAttribute(T *f, enum cudaFuncAttribute a, int v) {
  return cudaFuncSetAttribute((const void *)f, a, v);
}
template <class T> static __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, T *f) {
  return cudaFuncGetAttributes(a, (const void *)f);
}
template <class T> static __host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, T f, int block, size_t smem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, (const void *)f, block, smem);
}
template <class T> static __host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *grid, int *block, T f, size_t smem = 0, int limit = 0) {
  return cudaOccupancyMaxPotentialBlockSize(grid, block, (const void *)f, smem, limit);
}
template <class T> static __host__ cudaError_t cudaLaunchCooperativeKernel(T *f, dim3 grid, dim3 block, void **args, size_t smem = 0, cudaStream_t s = 0) {
  return cudaLaunchCooperativeKernel((const void *)f, grid, block, args, smem, s);
}
template <class T> static __host__ cudaError_t cudaLaunchKernel(T *f, dim3 grid, dim3 block, void **args, size_t smem = 0, cudaStream_t s = 0) {
  return cudaLaunchKernel((const void *)f, grid, block, args, smem, s);
}

#endif // KERNELSCOPE_RUNTIME_H
