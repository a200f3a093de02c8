#!/usr/bin/env bash
# Fails if hamcp's own machine code uses any instruction newer than SSE2, i.e. anything a
# baseline x86-64 CPU (-march=x86-64) may not have. Why a scan on top of the qemu Conroe lane:
# qemu only traps what the tests happen to execute; the scan sees every instruction we ship.
#
#   scripts/check-baseline-cpu.sh BUILD_DIR    scan our objects: every *.o under BUILD_DIR (this is
#                                              exactly what libhamcp_*.a, the hamcp binary, the unit
#                                              tests and the test servers are made of)
#   scripts/check-baseline-cpu.sh FILE...      scan these objects / archives / executables
#   scripts/check-baseline-cpu.sh --self-test  prove the scan catches bad objects and passes good ones
#
# Not scanned: shared libraries we link (glibc, OpenSSL, libyaml; libstdc++ and Boost too with
# -DHAMCP_STATIC_RUNTIME=OFF): they pick instructions at run time after asking the CPU, which is
# legitimate. The libstdc++/Boost code linked into hamcp is scanned with the binary (exemption below).
set -euo pipefail

# Mnemonics (AT&T, as objdump prints them) that a baseline x86-64 CPU lacks. Suffix forms
# (crc32b/w/l/q, pextrd...) are listed or matched by pattern below.
#   SSE3     addsubpd addsubps haddpd haddps hsubpd hsubps lddqu movddup movshdup movsldup
#            fisttp* monitor mwait
#   SSSE3    pabs{b,w,d} palignr phadd{w,d,sw} phsub{w,d,sw} pmaddubsw pmulhrsw pshufb psign{b,w,d}
#   SSE4.1   blendpd blendps blendvpd blendvps dppd dpps extractps insertps movntdqa mpsadbw
#            packusdw pblendvb pblendw pcmpeqq pextr{b,d,q} phminposuw pinsr{b,d,q} pmaxs{b,d}
#            pmaxu{d,w} pmins{b,d} pminu{d,w} pmovsx* pmovzx* pmuldq pmulld ptest round{pd,ps,sd,ss}
#   SSE4.2   pcmpestri pcmpestrm pcmpistri pcmpistrm pcmpgtq crc32*
#   SSE4a    extrq insertq movntsd movntss
#   POPCNT/LZCNT/BMI1/BMI2   popcnt lzcnt andn bextr blsi blsmsk blsr bzhi mulx pdep pext rorx sarx shlx shrx
#   AES/PCLMUL/SHA/RDRAND/MOVBE/ADX/XSAVE   aes* pclmul* sha1* sha256* rdrand rdseed movbe adcx adox
#            xsave* xrstor* xgetbv
#   AVX, AVX2, FMA, F16C, AVX-512: every VEX/EVEX instruction is printed with a leading "v"
#            (vmovdqa, vpaddd, vfmadd231ps, vzeroupper...), except the ancient verr/verw;
#            AVX-512 mask instructions: k{and,andn,or,xor,xnor,not,mov,shift*,test,add,unpck}*
# Deliberately NOT listed: tzcnt. GCC's generic tuning emits `rep bsf` for __builtin_ctz (the
# F3 0F BC encoding, which objdump prints as tzcnt); on CPUs without BMI1 it runs as bsf, and GCC
# only emits it where the input is known non-zero, so it is baseline-safe. (lzcnt has no such
# use: its fallback bsr gives different results, so it stays on the list.)
read -r -d '' NEWER_THAN_SSE2_RE <<'EOF' || true
^(addsubp[sd]|h(add|sub)p[sd]|lddqu|movddup|movs[hl]dup|fisttp[sl]?l?|monitor|mwait|pabs[bwd]|palignr|ph(add|sub)(w|d|sw)|pmaddubsw|pmulhrsw|pshufb|psign[bwd]|blendv?p[sd]|dpp[sd]|extractps|insertps|movntdqa|mpsadbw|packusdw|pblendvb|pblendw|pcmpeqq|pextr[bdq]|phminposuw|pinsr[bdq]|pmaxs[bd]|pmaxu[dw]|pmins[bd]|pminu[dw]|pmov[sz]x[bwd][wdq]|pmuldq|pmulld|ptest|round[ps][sd]|pcmp[ei]str[im]|pcmpgtq|crc32[bwlq]?|extrq|insertq|movnts[sd]|popcnt[wlq]?|lzcnt[wlq]?|andn[lq]?|bextr[lq]?|blsi[lq]?|blsmsk[lq]?|blsr[lq]?|bzhi[lq]?|mulx[lq]?|pdep[lq]?|pext[lq]?|rorx[lq]?|sarx[lq]?|shlx[lq]?|shrx[lq]?|aes[a-z]*|pclmul[a-z]*|sha1[a-z0-9]*|sha256[a-z0-9]*|rdrand[wlq]?|rdseed[wlq]?|movbe[wlq]?|adcx[lq]?|adox[lq]?|xsave[a-z0-9]*|xrstor[a-z0-9]*|xgetbv|k(and|andn|or|xor|xnor|not|mov|shift[lr]|ortest|test|add|unpck)[bwdq]*|v[a-z0-9]+)$
EOF

# Functions of a statically linked system library (hamcp links libstdc++.a: cmake/static_runtime.cmake)
# that use a newer instruction only after asking the CPU: libstdc++'s std::random_device reads
# RDSEED/RDRAND through these three helpers, chosen in random_device::_M_init only when CPUID
# reports the feature (else /dev/urandom). Exact names; nothing of hamcp's own is exempt.
CPUID_GUARDED_FNS="<_ZNSt12_GLOBAL__N_112__x86_rdrandEPv>: <_ZNSt12_GLOBAL__N_112__x86_rdseedEPv>:"
CPUID_GUARDED_FNS+=" <_ZNSt12_GLOBAL__N_119__x86_rdseed_rdrandEPv>:"

# Prints "<file>: <count> <mnemonic> e.g. <line>" for every offending mnemonic in one file.
scan_file() {
  local f="$1"
  objdump -d --no-show-raw-insn "$f" 2>/dev/null | awk -v re="$NEWER_THAN_SSE2_RE" -v file="$f" -v guarded="$CPUID_GUARDED_FNS" '
    BEGIN { n = split(guarded, g, " "); for (i = 1; i <= n; i++) exempt[g[i]] = 1 }
    /^[0-9a-f]+ <.*>:$/ { fn = $2 }
    /^ *[0-9a-f]+:\t/ {
      if (fn in exempt) next
      split($0, parts, "\t"); insn = parts[2]
      n = split(insn, tok, /[ \t]+/); i = 1
      # skip prefixes objdump prints before the mnemonic
      while (i < n && tok[i] ~ /^(lock|rep|repz|repnz|repe|repne|notrack|bnd|data16|data32|addr32|rex(\.[A-Z]+)?|cs|ds|es|fs|gs|ss|\{vex\}|\{evex\})$/) i++
      m = tok[i]
      if (m ~ /^ver[rw]$/) next
      if (m ~ re) { count[m]++; if (!(m in example)) example[m] = fn " " insn }
    }
    END { for (m in count) printf "%s: %d x %s   e.g. in %s\n", file, count[m], m, example[m] }'
}

# Scans the given files (in parallel, one objdump per core); prints offenders; returns 1 if any.
scan() {
  local out_dir f i=0 jobs
  jobs="$(nproc 2>/dev/null || echo 2)"
  out_dir="$(mktemp -d)"
  for f in "$@"; do
    i=$((i + 1))
    scan_file "$f" >"$out_dir/$i" &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  done
  wait
  if cat "$out_dir"/* 2>/dev/null | grep -q .; then
    cat "$out_dir"/* >&2
    rm -rf "$out_dir"
    return 1
  fi
  rm -rf "$out_dir"
  return 0
}

self_test() {
  local dir rc=0
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' RETURN
  # Loops the compiler vectorises / builtins that map to single newer instructions.
  cat >"$dir/t.cpp" <<'EOF'
#include <cstddef>
#include <cstdint>
void add(int* __restrict a, const int* __restrict b, std::size_t n) { for (std::size_t i = 0; i < n; ++i) a[i] += b[i] * 3; }
int bits(unsigned long x) { return __builtin_popcountl(x); }
unsigned crc(unsigned c, unsigned char v) {
#if defined(__SSE4_2__)
  return __builtin_ia32_crc32qi(c, v);
#else
  return c ^ v;
#endif
}
int lead(unsigned x) { return __builtin_clz(x | 1); }
void absb(signed char* __restrict a, std::size_t n) { for (std::size_t i = 0; i < n; ++i) a[i] = a[i] < 0 ? -a[i] : a[i]; }
EOF
  local -a good_flags=("-O2" "-O3")
  local -a bad_flags=("-O3 -mavx2" "-O2 -mavx" "-O2 -msse4.2" "-O2 -mssse3 -ftree-vectorize" "-O2 -mpopcnt"
                      "-O2 -mlzcnt" "-O3 -march=haswell" "-O3 -march=x86-64-v2")
  local f
  for f in "${good_flags[@]}"; do
    # shellcheck disable=SC2086
    g++ -c $f "$dir/t.cpp" -o "$dir/good.o"
    clang++-14 -c $f "$dir/t.cpp" -o "$dir/good-clang.o" 2>/dev/null || cp "$dir/good.o" "$dir/good-clang.o"
    if ! scan "$dir/good.o" "$dir/good-clang.o" 2>"$dir/err"; then
      echo "self-test FAILED: baseline object ($f) was flagged:" >&2; cat "$dir/err" >&2; rc=1
    else
      echo "self-test: baseline object ($f) passes"
    fi
  done
  for f in "${bad_flags[@]}"; do
    # shellcheck disable=SC2086
    g++ -c $f "$dir/t.cpp" -o "$dir/bad.o"
    if scan "$dir/bad.o" 2>"$dir/err"; then
      echo "self-test FAILED: object built with $f was NOT flagged" >&2; rc=1
    else
      echo "self-test: object built with $f is caught ($(cut -d: -f2 "$dir/err" | tr '\n' ';' | head -c 120))"
    fi
  done
  # An archive holding a bad member must be caught too (libhamcp_*.a are archives).
  g++ -c -O2 -mavx2 "$dir/t.cpp" -o "$dir/bad.o" && ar rcs "$dir/libbad.a" "$dir/good.o" "$dir/bad.o"
  if scan "$dir/libbad.a" 2>/dev/null; then echo "self-test FAILED: archive with an AVX2 member not flagged" >&2; rc=1
  else echo "self-test: archive with an AVX2 member is caught"; fi
  return $rc
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
  exit $?
fi
if [ $# -eq 0 ]; then
  echo "usage: $0 BUILD_DIR | FILE... | --self-test" >&2
  exit 2
fi

files=()
if [ $# -eq 1 ] && [ -d "$1" ]; then
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$1" -name '*.o' -path '*CMakeFiles*' -print0 | sort -z)
  # Our executables' own code is these objects; the hamcp binary is scanned whole as well
  # (our archives and, with HAMCP_STATIC_RUNTIME, libstdc++/Boost/spdlog/fmt code linked in).
  [ -x "$1/hamcp" ] && files+=("$1/hamcp")
else
  files=("$@")
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "check-baseline-cpu: nothing to scan in $*" >&2
  exit 2
fi
if scan "${files[@]}"; then
  echo "check-baseline-cpu: ${#files[@]} files scanned, no instruction newer than SSE2"
else
  echo "check-baseline-cpu: instructions newer than SSE2 found (see above). Remove -m/-march flags;" \
       "baseline x86-64 only." >&2
  exit 1
fi
