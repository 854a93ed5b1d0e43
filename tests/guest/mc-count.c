// SPDX-License-Identifier: GPL-2.0
/*
 * mc-count MEDIA_DEV: print "ENTITIES PADS LINKS INTERFACES" of a media
 * device, as MEDIA_IOC_G_TOPOLOGY reports them. Cheap enough to check the
 * graph after every cycle of a bind/unbind or module reload loop
 * (tests/guest/fault.sh, tests/guest/lifetime.sh).
 *
 * It also checks the counts against the records: the counts come from a
 * call without arrays (which the kernel answers from the counts it keeps,
 * patches/0010), then a second call gets arrays with room for one record
 * more than counted, filled beforehand with an id no graph object has. Of
 * the same topology version, the second call must report the same counts
 * and have written exactly that many records of each kind: a count that
 * the kernel got wrong leaves a record unwritten or writes one past it.
 * Exit status 1, and a message, when they disagree or an ioctl fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/media.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* no graph object has this id: the type is in the top byte (1 to 4) */
#define UNWRITTEN 0xffffffffu
/* another process may be changing the graph: tries of a stable version */
#define TRIES 20
/* more objects of a kind than a media device can hold: a count gone wrong */
#define MAX_COUNT (1u << 24)

static int fd;
static const char *path;

static int fail(const char *what)
{
	fprintf(stderr, "mc-count: %s: %s\n", path, what);
	return 1;
}

/*
 * Records written of an array of @n + 1 records of @size bytes, whose
 * first member is the __u32 id: 1 when exactly the first @n were.
 */
static int written(const void *array, unsigned int n, size_t size)
{
	const unsigned char *p = array;
	unsigned int i;
	__u32 id;

	for (i = 0; i <= n; i++) {
		memcpy(&id, p + i * size, sizeof(id));
		if ((id == UNWRITTEN) != (i == n))
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	struct media_v2_topology topo, full;
	struct media_v2_entity *ents = NULL;
	struct media_v2_interface *intfs = NULL;
	struct media_v2_pad *pads = NULL;
	struct media_v2_link *links = NULL;
	int tries, ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: mc-count MEDIA_DEV\n");
		return 2;
	}
	path = argv[1];
	fd = open(path, O_RDWR);
	if (fd < 0)
		return fail(strerror(errno));
	for (tries = 0; tries < TRIES; tries++) {
		memset(&topo, 0, sizeof(topo));
		if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &topo) < 0) {
			ret = fail(strerror(errno));
			goto out;
		}
		if (topo.num_entities > MAX_COUNT || topo.num_interfaces > MAX_COUNT ||
		    topo.num_pads > MAX_COUNT || topo.num_links > MAX_COUNT) {
			ret = fail("a count past any graph's size (a count below zero?)");
			goto out;
		}
		free(ents);
		free(intfs);
		free(pads);
		free(links);
		ents = malloc(((size_t)topo.num_entities + 1) * sizeof(*ents));
		intfs = malloc(((size_t)topo.num_interfaces + 1) * sizeof(*intfs));
		pads = malloc(((size_t)topo.num_pads + 1) * sizeof(*pads));
		links = malloc(((size_t)topo.num_links + 1) * sizeof(*links));
		if (!ents || !intfs || !pads || !links) {
			ret = fail("out of memory");
			goto out;
		}
		memset(ents, 0xff, ((size_t)topo.num_entities + 1) * sizeof(*ents));
		memset(intfs, 0xff, ((size_t)topo.num_interfaces + 1) * sizeof(*intfs));
		memset(pads, 0xff, ((size_t)topo.num_pads + 1) * sizeof(*pads));
		memset(links, 0xff, ((size_t)topo.num_links + 1) * sizeof(*links));
		memset(&full, 0, sizeof(full));
		full.num_entities = topo.num_entities + 1;
		full.num_interfaces = topo.num_interfaces + 1;
		full.num_pads = topo.num_pads + 1;
		full.num_links = topo.num_links + 1;
		full.ptr_entities = (uintptr_t)ents;
		full.ptr_interfaces = (uintptr_t)intfs;
		full.ptr_pads = (uintptr_t)pads;
		full.ptr_links = (uintptr_t)links;
		if (ioctl(fd, MEDIA_IOC_G_TOPOLOGY, &full) < 0) {
			ret = fail(strerror(errno));
			goto out;
		}
		if (full.topology_version == topo.topology_version)
			break;
		usleep(10000);
	}
	if (tries == TRIES) {
		ret = fail("the topology changed between the calls, every try");
		goto out;
	}
	if (full.num_entities != topo.num_entities ||
	    full.num_interfaces != topo.num_interfaces ||
	    full.num_pads != topo.num_pads ||
	    full.num_links != topo.num_links) {
		ret = fail("the counts differ between the two calls of one topology version");
		goto out;
	}
	if (!written(ents, topo.num_entities, sizeof(*ents)) ||
	    !written(intfs, topo.num_interfaces, sizeof(*intfs)) ||
	    !written(pads, topo.num_pads, sizeof(*pads)) ||
	    !written(links, topo.num_links, sizeof(*links))) {
		ret = fail("the records written are not as many as counted");
		goto out;
	}
	printf("%u %u %u %u\n", topo.num_entities, topo.num_pads, topo.num_links,
	       topo.num_interfaces);
	ret = 0;
out:
	free(ents);
	free(intfs);
	free(pads);
	free(links);
	close(fd);
	return ret;
}
