// SPDX-License-Identifier: GPL-2.0
/*
 * mc-count MEDIA_DEV: print "ENTITIES PADS LINKS INTERFACES" of a media
 * device, from one MEDIA_IOC_G_TOPOLOGY call (no arrays: the kernel fills
 * in the counts only). Cheap enough to check the graph after every cycle of
 * a bind/unbind or module reload loop (tests/guest/fault.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct media_v2_topology topo;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: mc-count MEDIA_DEV\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "mc-count: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	memset(&topo, 0, sizeof(topo));
	if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &topo) < 0) {
		fprintf(stderr, "mc-count: MEDIA_IOC_G_TOPOLOGY: %s\n", strerror(errno));
		close(fd);
		return 1;
	}
	printf("%u %u %u %u\n", topo.num_entities, topo.num_pads, topo.num_links,
	       topo.num_interfaces);
	close(fd);
	return 0;
}
