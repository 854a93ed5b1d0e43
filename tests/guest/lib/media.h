/* SPDX-License-Identifier: GPL-2.0 */
/*
 * media.h - small helpers of the guest tests that walk the media graph
 * (MEDIA_IOC_G_TOPOLOGY) and open the nodes it names.
 */
#ifndef N900_TESTS_MEDIA_H
#define N900_TESTS_MEDIA_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <linux/media.h>

/* A data link (not an interface or ancillary link). */
static inline int is_data(const struct media_v2_link *l)
{
	return (l->flags & MEDIA_LNK_FL_LINK_TYPE) == MEDIA_LNK_FL_DATA_LINK;
}

/* The DEVNAME of a character device, from sysfs, as "/dev/NAME". */
static inline int devname(uint32_t major, uint32_t minor, char *out, size_t len)
{
	char path[96], line[128];
	FILE *fp;
	int ret = -1;

	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/uevent", major, minor);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, len, "/dev/%s", line + 8);
			ret = 0;
		}
	fclose(fp);
	return ret;
}

#endif
