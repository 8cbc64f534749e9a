# GPU build support, included by the root CMakeLists.txt before the layers.
#
# CUZK_HAVE_OPENCL: an OpenCL ICD loader and headers were found (Debian: ocl-icd-opencl-dev,
#   opencl-headers); the OpenCL runtime of src/gpu is built. -DCUZK_OPENCL=OFF disables it.
# CUZK_HAVE_CUDA: nvcc was found (PATH, CUDA_PATH or /usr/local/cuda/bin); the kernels are also
#   compiled into a CUDA fatbin for CUZK_CUDA_ARCHS and the CUDA runtime (driver API through
#   dlopen, so no link-time dependency on libcuda) is built. -DCUZK_CUDA=OFF disables it.
# Neither is required: without them src/gpu still builds and discovery says "not built".
#
# cuzk_gpu_program(SYMBOL NAME MAIN OUT_VAR): a generated C file defining the gpu_program
#   SYMBOL (runtime.h) from the kernel main file MAIN (OpenCL source with its includes inlined;
#   plus the CUDA fatbin when CUZK_HAVE_CUDA); its path is returned in OUT_VAR.
option(CUZK_OPENCL "build the OpenCL GPU runtime when an ICD loader and headers are found" ON)
option(CUZK_CUDA "build the CUDA GPU runtime and fatbin when nvcc is found" ON)
set(CUZK_CUDA_ARCHS "90" CACHE STRING "CUDA SASS architectures of the fatbin (PTX of the last one is added)")

set(CUZK_HAVE_OPENCL OFF)
if(CUZK_OPENCL)
  find_package(OpenCL QUIET)
  if(OpenCL_FOUND)
    set(CUZK_HAVE_OPENCL ON)
  endif()
endif()
set(CUZK_HAVE_CUDA OFF)
if(CUZK_CUDA)
  find_program(CUZK_NVCC nvcc HINTS ENV CUDA_PATH PATH_SUFFIXES bin PATHS /usr/local/cuda/bin)
  if(CUZK_NVCC)
    # cuda.h of nvcc's own toolkit: beside the real nvcc (a link such as /usr/local/bin/nvcc
    # -> /usr/local/cuda-13.0/bin/nvcc resolved), else CUDA_PATH's or /usr/local/cuda's
    get_filename_component(cuzk_nvcc_real "${CUZK_NVCC}" REALPATH)
    get_filename_component(cuzk_cuda_bin "${cuzk_nvcc_real}" DIRECTORY)
    find_path(CUZK_CUDA_INCLUDE cuda.h HINTS "${cuzk_cuda_bin}/../include" "$ENV{CUDA_PATH}/include"
              /usr/local/cuda/include NO_DEFAULT_PATH)
    if(CUZK_CUDA_INCLUDE)
      set(CUZK_HAVE_CUDA ON)
    else()
      message(WARNING "cuzk: nvcc found (${CUZK_NVCC}) but not its cuda.h: the CUDA runtime is left out")
    endif()
  endif()
endif()
message(STATUS "cuzk GPU runtimes: OpenCL ${CUZK_HAVE_OPENCL}, CUDA ${CUZK_HAVE_CUDA}"
)

set(CUZK_GPU_KERNEL_DIR ${CMAKE_SOURCE_DIR}/src/gpu/kernels)
file(GLOB CUZK_GPU_KERNEL_FILES CONFIGURE_DEPENDS ${CUZK_GPU_KERNEL_DIR}/*.h ${CUZK_GPU_KERNEL_DIR}/*.cl)

function(cuzk_gpu_program symbol name main out_var)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${symbol}.c)
  set(fatbin_arg "")
  set(deps ${main} ${CUZK_GPU_KERNEL_FILES} ${CMAKE_SOURCE_DIR}/src/gpu/embed_program.cmake)
  if(CUZK_HAVE_CUDA)
    set(fatbin ${CMAKE_CURRENT_BINARY_DIR}/${symbol}.fatbin)
    set(gencode "")
    foreach(arch ${CUZK_CUDA_ARCHS})
      list(APPEND gencode -gencode arch=compute_${arch},code=sm_${arch})
      set(last ${arch})
    endforeach()
    list(APPEND gencode -gencode arch=compute_${last},code=compute_${last})
    add_custom_command(OUTPUT ${fatbin}
      COMMAND ${CUZK_NVCC} -fatbin -x cu -std=c++17 -O3 ${gencode} -I${CUZK_GPU_KERNEL_DIR} ${main} -o ${fatbin}
      DEPENDS ${main} ${CUZK_GPU_KERNEL_FILES}
      COMMENT "nvcc: ${name} for sm ${CUZK_CUDA_ARCHS}" VERBATIM)
    set(fatbin_arg -DFATBIN=${fatbin})
    list(APPEND deps ${fatbin})
  endif()
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DNAME=${name} -DSYMBOL=${symbol} -DCL_MAIN=${main} ${fatbin_arg} -DOUT=${out}
            -P ${CMAKE_SOURCE_DIR}/src/gpu/embed_program.cmake
    DEPENDS ${deps}
    COMMENT "embedding ${name}" VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
