/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h - the few kernel types and macros drivers/isp/isp_pixel.[ch] use,
 * for the host build of the reference model (gcc -include kcompat.h).
 */
#ifndef N900_REF_KCOMPAT_H
#define N900_REF_KCOMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;

#define BIT(n)	(1UL << (n))

/* the kernel's compiler_attributes.h, which kbuild includes everywhere */
#ifndef noinline
#define noinline	__attribute__((__noinline__))
#endif
#ifndef __aligned
#define __aligned(x)	__attribute__((__aligned__(x)))
#endif

#endif /* N900_REF_KCOMPAT_H */
