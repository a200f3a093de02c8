# Cross build for 64-bit ARM (Raspberry Pi 3/4/5 and other aarch64 Home Assistant hosts) with
# Debian's cross toolchain (crossbuild-essential-arm64) and Debian's arm64 libraries installed
# side by side with the native ones (multiarch: dpkg --add-architecture arm64). The binaries run
# here under qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR), so ctest and gtest discovery work.
# Baseline ARMv8-A only: no -mcpu/-march, like the x86-64 build's no -march=native rule.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Multiarch: headers are shared in /usr/include, libraries and CMake package files live in
# /usr/lib/aarch64-linux-gnu (CMAKE_LIBRARY_ARCHITECTURE makes find_package look there first).
# The cross toolchain's own runtime is in /usr/aarch64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config (libyaml) must read the arm64 .pc files, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# No `-L /usr/aarch64-linux-gnu`: the binaries link the multiarch libraries (libc6:arm64 among them),
# whose loader is /lib/ld-linux-aarch64.so.1; mixing in the cross toolchain's own older libc hangs
# at the first thread.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
