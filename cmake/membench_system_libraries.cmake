# The shared libraries a bundle takes from the machine it runs on (file names, as regular
# expressions): the C/C++ runtime and the driver. Read by cmake/MembenchInstall.cmake and
# by tests/check_install.cmake, which checks that everything else travels.
set(MEMBENCH_SYSTEM_LIBRARIES "^ld-linux" "^libc\\.so" "^libm\\.so" "^libstdc\\+\\+\\.so" "^libgcc_s\\.so"
    "^libpthread\\.so" "^libdl\\.so" "^librt\\.so" "^libcuda\\.so" "^linux-vdso")
