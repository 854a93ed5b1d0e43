// SPDX-License-Identifier: GPL-2.0
/*
 * isp_links.c - the links of the ISP's media graph: created from the OF
 * graph of the device tree as entities appear, removed as they go, and the
 * rules an enabled link follows (one input per sink pad, one output per
 * memory input node, no loops)
 */

#include <linux/of.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <media/media-entity.h>
#include <media/v4l2-fwnode.h>

#include "isp.h"

/* -----------------------------------------------------------------------------
 * Link rules
 */

/**
 * isp_link_setup() - the link rules of the ISP's entities
 * @entity: the entity whose link changes
 * @local: the pad of @entity at this end of the link
 * @remote: the pad at the other end
 * @flags: the requested link flags
 *
 * A sink pad of the OMAP3 ISP takes data from one source at a time, so
 * enabling a second link into a sink pad that already has an enabled one
 * fails with -EBUSY, as on the real hardware. So does a second link out of
 * a memory input (output) node: it is a DMA read port that feeds one
 * block, and its frames are the size of the one sink pad it feeds
 * (isp_video_check_format(), isp_frame_create()). A link that would close
 * a loop of enabled links fails with -EINVAL (isp_link_order()); a link
 * that breaks both rules gets -EBUSY, as in the seed. (isp_link_notify()
 * applies the loop rule to the links into other entities.)
 *
 * Return: 0, -EBUSY, -EINVAL or -ENOMEM.
 */
int isp_link_setup(struct media_entity *entity, const struct media_pad *local,
		   const struct media_pad *remote, u32 flags)
{
	struct media_link *link;

	if (!(flags & MEDIA_LNK_FL_ENABLED))
		return 0;
	if (!(local->flags & MEDIA_PAD_FL_SINK) &&
	    !is_media_entity_v4l2_video_device(entity))
		return 0;

	for_each_media_entity_data_link(entity, link) {
		if (link->source != local && link->sink != local)
			continue;
		if (link->source == remote || link->sink == remote)
			continue;
		if (link->flags & MEDIA_LNK_FL_ENABLED)
			return -EBUSY;
	}
	if (!(local->flags & MEDIA_PAD_FL_SINK))
		return 0;
	return isp_link_order(container_of(entity->graph_obj.mdev,
					   struct isp_device, mdev),
			      remote->entity, entity);
}

/* whether @entity's link_setup applies the loop rule (isp_link_setup()) */
bool isp_entity_checks_loops(struct media_entity *entity)
{
	return entity->ops && entity->ops->link_setup == isp_link_setup;
}

/* -----------------------------------------------------------------------------
 * No loops: a topological order of the enabled links
 *
 * Frames in a loop of enabled links would have no source (the mesh stress
 * topologies have loops of links), so no link may be enabled that closes
 * one. Rather than walk the graph downstream of every link enabled, the ISP
 * keeps its entities in a topological order of the enabled links, after
 * Pearce and Kelly ("A dynamic topological sort algorithm for directed
 * acyclic graphs", 2006): each entity has a rank, and every enabled link
 * runs from a lower rank to a higher one.
 *
 * A link from a lower rank to a higher one cannot close a loop (a path
 * back from its sink to its source would have to climb down), and costs
 * nothing to check. For a link against the order, only the entities
 * ranked between its two ends can be on a path back: they are searched,
 * and if none closes a loop, they are reranked among their own ranks so
 * that the link follows the order too. Disabling a link keeps the order.
 *
 * Ranks are indexed by the entities' internal index and given on first
 * sight, after all the others. An entity that reuses the index of a gone
 * one takes over its rank: it has no enabled link yet, and no one else has
 * that rank. A link that is then refused all the same (by link_setup, or
 * a failed power-up) leaves the ranks reordered for nothing, which is
 * harmless: they still order every enabled link. Everything here runs
 * under the graph mutex.
 */

struct isp_ranked {
	u64 rank;
	struct media_entity *entity;
};

/* make room for a rank for every internal index the media device gave */
static int isp_ranks_grow(struct isp_device *isp)
{
	unsigned int num = isp->mdev.entity_internal_idx_max + 1;
	u64 *ranks;

	if (num <= isp->num_ranks)
		return 0;
	num = max(num, 2 * isp->num_ranks);
	ranks = krealloc_array(isp->ranks, num, sizeof(*ranks), GFP_KERNEL);
	if (!ranks)
		return -ENOMEM;
	memset(ranks + isp->num_ranks, 0,
	       (num - isp->num_ranks) * sizeof(*ranks));
	isp->ranks = ranks;
	isp->num_ranks = num;
	return 0;
}

static u64 isp_rank(struct isp_device *isp, struct media_entity *entity)
{
	u64 *rank = &isp->ranks[entity->internal_idx];

	if (!*rank)
		*rank = ++isp->next_rank;
	return *rank;
}

/*
 * Search over enabled links from @set[*n - 1], downstream or upstream, the
 * entities ranked strictly between @lo and @hi, and append them to @set.
 * Return true when @stop is reached (a loop).
 */
static bool isp_rank_search(struct isp_device *isp, struct isp_ranked *set,
			    unsigned int *n, unsigned long *seen, bool down,
			    u64 lo, u64 hi, struct media_entity *stop)
{
	unsigned int i;

	for (i = *n - 1; i < *n; i++) {
		struct media_entity *entity = set[i].entity;
		struct media_link *link;

		for_each_media_entity_data_link(entity, link) {
			struct media_pad *near = down ? link->source : link->sink;
			struct media_pad *far = down ? link->sink : link->source;
			u64 rank;

			if (near->entity != entity ||
			    !(link->flags & MEDIA_LNK_FL_ENABLED))
				continue;
			if (far->entity == stop)
				return true;
			if (test_bit(far->entity->internal_idx, seen))
				continue;
			rank = isp_rank(isp, far->entity);
			if (rank <= lo || rank >= hi)
				continue;
			__set_bit(far->entity->internal_idx, seen);
			set[(*n)++] = (struct isp_ranked){ rank, far->entity };
		}
	}
	return false;
}

static int isp_ranked_cmp(const void *a, const void *b)
{
	const struct isp_ranked *ra = a, *rb = b;

	return ra->rank < rb->rank ? -1 : ra->rank > rb->rank;
}

/**
 * isp_link_order() - refuse a link that would close a loop, order the others
 * @isp: the ISP device
 * @source: the entity of the link's source pad
 * @sink: the entity of its sink pad
 *
 * Called before a data link from @source to @sink is enabled, with the
 * graph mutex held. See "No loops" above.
 *
 * Return: 0 when the link closes no loop of enabled links (the ranks then
 * order it), -EINVAL when it would, -ENOMEM.
 */
int isp_link_order(struct isp_device *isp, struct media_entity *source,
		   struct media_entity *sink)
{
	struct isp_ranked *set = NULL;
	unsigned long *seen = NULL;
	unsigned int n = 0, forward, down, up, i;
	u64 lo, hi;
	int ret;

	lockdep_assert_held(&isp->mdev.graph_mutex);
	if (source == sink)
		return -EINVAL;
	ret = isp_ranks_grow(isp);
	if (ret)
		return ret;
	/* in this order: a link between two new entities follows the order */
	hi = isp_rank(isp, source);
	lo = isp_rank(isp, sink);
	if (hi < lo)
		return 0;

	seen = bitmap_zalloc(isp->num_ranks, GFP_KERNEL);
	set = kvmalloc_array(isp->num_ranks, sizeof(*set), GFP_KERNEL);
	if (!seen || !set) {
		ret = -ENOMEM;
		goto out;
	}

	/* what the sink reaches below the source, then what reaches the source */
	set[n++] = (struct isp_ranked){ lo, sink };
	if (isp_rank_search(isp, set, &n, seen, true, lo, hi, source)) {
		ret = -EINVAL;
		goto out;
	}
	forward = n;
	set[n++] = (struct isp_ranked){ hi, source };
	isp_rank_search(isp, set, &n, seen, false, lo, hi, sink);

	/*
	 * Both parts in their own order; then their ranks, merged, lowest
	 * first: the first n - forward go to the upstream part, set[forward]
	 * to set[n - 1], the others to the downstream part, set[0] to
	 * set[forward - 1]. The ranks are read from set, written to the
	 * ISP's ranks; down and up walk the two parts' ranks.
	 */
	sort(set, forward, sizeof(*set), isp_ranked_cmp, NULL);
	sort(set + forward, n - forward, sizeof(*set), isp_ranked_cmp, NULL);
	down = 0;
	up = forward;
	for (i = 0; i < n; i++) {
		struct media_entity *entity = i < n - forward ?
			set[forward + i].entity : set[i - (n - forward)].entity;

		if (up == n || (down < forward && set[down].rank < set[up].rank))
			isp->ranks[entity->internal_idx] = set[down++].rank;
		else
			isp->ranks[entity->internal_idx] = set[up++].rank;
	}
out:
	kvfree(set);
	bitmap_free(seen);
	return ret;
}

/* -----------------------------------------------------------------------------
 * Links from the OF graph
 */

/**
 * isp_find_entity() - find the media entity a DT node describes
 * @isp: the ISP device
 * @fwnode: a device node (the parent of ports/endpoints)
 *
 * Return: the video node's or bound subdevice's entity, or NULL when no
 * entity for @fwnode is registered (yet).
 */
struct media_entity *isp_find_entity(struct isp_device *isp,
				     struct fwnode_handle *fwnode)
{
	struct v4l2_subdev *sd;
	unsigned int i;

	for (i = 0; i < isp->num_videos; i++)
		if (isp->videos[i].fwnode == fwnode)
			return &isp->videos[i].vdev.entity;

	list_for_each_entry(sd, &isp->v4l2_dev.subdevs, list)
		if (sd->fwnode == fwnode)
			return &sd->entity;
	return NULL;
}

static u32 endpoint_link_flags(struct fwnode_handle *ep)
{
	u32 flags = 0;

	if (fwnode_property_read_bool(ep, ISP_DT_LINK_ENABLED))
		flags |= MEDIA_LNK_FL_ENABLED;
	if (fwnode_property_read_bool(ep, ISP_DT_LINK_IMMUTABLE))
		flags |= MEDIA_LNK_FL_IMMUTABLE;
	return flags;
}

/* whether @pad is an end of an enabled data link */
static bool pad_has_enabled_link(struct media_pad *pad)
{
	struct media_link *link;

	for_each_media_entity_data_link(pad->entity, link)
		if ((link->sink == pad || link->source == pad) &&
		    (link->flags & MEDIA_LNK_FL_ENABLED))
			return true;
	return false;
}

/*
 * Enable a link just made (disabled) from the device tree, as SETUP_LINK
 * would: the entities' link_setup may refuse it, and link_notify powers
 * what it joins to an open video node. A refusal after the graph has been
 * complete is the user's configuration winning (another input of the sink
 * was enabled while this end was unbound): the link stays disabled. An
 * immutable link is made immutable once enabled.
 */
static int enable_new_link(struct isp_device *isp, struct fwnode_handle *ep,
			   struct media_link *link, u32 flags)
{
	int ret;

	ret = __media_entity_setup_link(link, MEDIA_LNK_FL_ENABLED);
	if (ret && (!isp->registered || (flags & MEDIA_LNK_FL_IMMUTABLE))) {
		dev_err(isp->dev, "%pfw: cannot enable %s:%u -> %s:%u (%d)\n",
			ep, link->source->entity->name, link->source->index,
			link->sink->entity->name, link->sink->index, ret);
		return ret;
	}
	if (ret) {
		dev_info(isp->dev, "%pfw: %s:%u -> %s:%u left disabled (%d)\n",
			 ep, link->source->entity->name, link->source->index,
			 link->sink->entity->name, link->sink->index, ret);
		return 0;
	}
	if (flags & MEDIA_LNK_FL_IMMUTABLE) {
		link->flags |= MEDIA_LNK_FL_IMMUTABLE;
		link->reverse->flags = link->flags;
	}
	return 0;
}

static int create_endpoint_link(struct isp_device *isp,
				struct media_entity *entity,
				struct fwnode_handle *ep)
{
	struct fwnode_handle *rep, *rparent, *back;
	struct v4l2_fwnode_endpoint vep = {}, rvep = {};
	struct media_entity *remote;
	struct media_pad *lpad, *rpad, *src, *sink;
	u32 flags;
	int ret = 0;

	fwnode_graph_parse_endpoint(ep, &vep.base);
	if (vep.base.port >= entity->num_pads) {
		dev_err(isp->dev, "%pfw: port %u, but %s has %u pads\n",
			ep, vep.base.port, entity->name, entity->num_pads);
		return -EINVAL;
	}

	rep = fwnode_graph_get_remote_endpoint(ep);
	if (!rep) {
		dev_err(isp->dev, "%pfw: no remote-endpoint\n", ep);
		return -EINVAL;
	}

	back = fwnode_graph_get_remote_endpoint(rep);
	fwnode_handle_put(back);
	if (back != ep) {
		dev_err(isp->dev, "%pfw: remote-endpoint %pfw does not point back\n",
			ep, rep);
		ret = -EINVAL;
		goto put_rep;
	}

	rparent = fwnode_graph_get_port_parent(rep);
	remote = isp_find_entity(isp, rparent);
	fwnode_handle_put(rparent);
	if (remote == entity) {
		dev_err(isp->dev, "%pfw: links %s to itself\n", ep, entity->name);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!remote)
		goto put_rep;	/* linked when the remote end binds */

	fwnode_graph_parse_endpoint(rep, &rvep.base);
	if (rvep.base.port >= remote->num_pads) {
		dev_err(isp->dev, "%pfw: port %u, but %s has %u pads\n",
			rep, rvep.base.port, remote->name, remote->num_pads);
		ret = -EINVAL;
		goto put_rep;
	}

	lpad = &entity->pads[vep.base.port];
	rpad = &remote->pads[rvep.base.port];
	if ((lpad->flags & MEDIA_PAD_FL_SOURCE) &&
	    (rpad->flags & MEDIA_PAD_FL_SINK)) {
		src = lpad;
		sink = rpad;
	} else if ((lpad->flags & MEDIA_PAD_FL_SINK) &&
		   (rpad->flags & MEDIA_PAD_FL_SOURCE)) {
		src = rpad;
		sink = lpad;
	} else {
		dev_err(isp->dev, "%pfw -> %pfw: link must join a source pad to a sink pad\n",
			ep, rep);
		ret = -EINVAL;
		goto put_rep;
	}

	flags = endpoint_link_flags(ep) | endpoint_link_flags(rep);
	if ((flags & MEDIA_LNK_FL_IMMUTABLE) && !(flags & MEDIA_LNK_FL_ENABLED)) {
		dev_err(isp->dev, "%pfw: an immutable link must be enabled\n", ep);
		ret = -EINVAL;
		goto put_rep;
	}
	/*
	 * A tree whose enabled links conflict is malformed. Once the graph
	 * has been complete, the conflict is with the user's configuration
	 * (a device coming back after an unbind): link_setup decides then.
	 */
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED) &&
	    pad_has_enabled_link(sink)) {
		dev_err(isp->dev, "%pfw: %s pad %u already has an enabled input\n",
			ep, sink->entity->name, sink->index);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED) &&
	    is_media_entity_v4l2_video_device(src->entity) &&
	    pad_has_enabled_link(src)) {
		dev_err(isp->dev, "%pfw: %s already has an enabled link: a memory input feeds one block\n",
			ep, src->entity->name);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED)) {
		ret = isp_link_order(isp, src->entity, sink->entity);
		if (ret == -EINVAL)
			dev_err(isp->dev, "%pfw: enabled links would loop through %s and %s\n",
				ep, src->entity->name, sink->entity->name);
		else if (ret)
			dev_err(isp->dev, "%pfw: cannot check %s -> %s for loops (%d)\n",
				ep, src->entity->name, sink->entity->name, ret);
		if (ret)
			goto put_rep;
	}

	ret = media_create_pad_link(src->entity, src->index, sink->entity,
				    sink->index, 0);
	if (ret) {
		dev_err(isp->dev, "%pfw: cannot link %s:%u -> %s:%u (%d)\n", ep,
			src->entity->name, src->index, sink->entity->name,
			sink->index, ret);
		goto put_rep;
	}
	if (flags & MEDIA_LNK_FL_ENABLED)
		ret = enable_new_link(isp, ep, media_entity_find_link(src, sink),
				      flags);
put_rep:
	fwnode_handle_put(rep);
	return ret;
}

/* isp_unlink_entity(), with the graph mutex held */
static void unlink_entity(struct media_entity *entity)
{
	struct media_link *link;

	for_each_media_entity_data_link(entity, link) {
		if (!(link->flags & MEDIA_LNK_FL_ENABLED))
			continue;
		link->flags &= ~(MEDIA_LNK_FL_ENABLED | MEDIA_LNK_FL_IMMUTABLE);
		link->reverse->flags = link->flags;
		media_entity_call(link->source->entity, link_setup,
				  link->source, link->sink, link->flags);
		media_entity_call(link->sink->entity, link_setup,
				  link->sink, link->source, link->flags);
		isp_link_notify(link, link->flags,
				MEDIA_DEV_NOTIFY_POST_LINK_CH);
	}
	__media_entity_remove_links(entity);
}

/**
 * isp_create_links() - create the links of one entity from the OF graph
 * @isp: the ISP device
 * @entity: the entity just registered
 * @fwnode: the DT node that describes @entity
 *
 * Every endpoint of @fwnode whose remote entity is already registered
 * becomes a data link; the others are created when their remote end is
 * registered, so the result does not depend on probe order. Port N is pad
 * N. The flags come from the "n900emu,link-enabled" and
 * "n900emu,link-immutable" properties of either endpoint; an enabled link
 * is enabled through link_setup and link_notify, as from userspace. Takes
 * the graph mutex: userspace may be walking the links (G_TOPOLOGY).
 *
 * Return: 0, or a negative errno after a dev_err() naming the endpoint.
 */
int isp_create_links(struct isp_device *isp, struct media_entity *entity,
		     struct fwnode_handle *fwnode)
{
	struct fwnode_handle *ep;
	int ret = 0;

	mutex_lock(&isp->mdev.graph_mutex);
	fwnode_graph_for_each_endpoint(fwnode, ep) {
		ret = create_endpoint_link(isp, entity, ep);
		if (ret) {
			fwnode_handle_put(ep);
			/* the bind fails: undo the links made, and their power */
			unlink_entity(entity);
			break;
		}
	}
	mutex_unlock(&isp->mdev.graph_mutex);
	return ret;
}

/**
 * isp_links_join() - would a binding entity's links join a pipeline?
 * @isp: the ISP device
 * @fwnode: the DT node of the entity about to get its links
 * @pipe: a started pipeline
 *
 * Looks for a link of @fwnode's graph that isp_create_links() must enable
 * for the bind to succeed (enabled in the tree, and immutable or the
 * graph not yet complete) whose other end is registered and has a pad in
 * @pipe. Takes the graph mutex.
 *
 * Return: that other end's entity, or NULL when there is none.
 */
struct media_entity *isp_links_join(struct isp_device *isp,
				    struct fwnode_handle *fwnode,
				    struct media_pipeline *pipe)
{
	struct fwnode_handle *ep, *rep, *rparent;
	struct media_entity *remote, *found = NULL;
	u32 flags;

	mutex_lock(&isp->mdev.graph_mutex);
	fwnode_graph_for_each_endpoint(fwnode, ep) {
		rep = fwnode_graph_get_remote_endpoint(ep);
		if (!rep)
			continue;
		flags = endpoint_link_flags(ep) | endpoint_link_flags(rep);
		rparent = fwnode_graph_get_port_parent(rep);
		remote = isp_find_entity(isp, rparent);
		fwnode_handle_put(rparent);
		fwnode_handle_put(rep);
		if (remote && (flags & MEDIA_LNK_FL_ENABLED) &&
		    (!isp->registered || (flags & MEDIA_LNK_FL_IMMUTABLE)) &&
		    isp_entity_in_pipeline(remote, pipe)) {
			found = remote;
			fwnode_handle_put(ep);
			break;
		}
	}
	mutex_unlock(&isp->mdev.graph_mutex);
	return found;
}

/**
 * isp_unlink_entity() - remove the links of an entity that goes away
 * @isp: the ISP device
 * @entity: an entity about to be unregistered, no longer streaming
 *
 * Unregistering an entity removes its links without telling anyone, and
 * not at once: until then, SETUP_LINK could enable them again and a
 * STREAMON reach the entity through them. So, in one hold of the graph
 * mutex, disable its enabled data links as SETUP_LINK would (the entity at
 * the other end hears it through link_setup, and the bus switch forgets
 * its input; link_notify powers down what the link joined to an open video
 * node, the departing entity included, so that no use count is left
 * behind), immutable ones too, then remove every link of the entity: no
 * path leads to it any more.
 */
void isp_unlink_entity(struct isp_device *isp, struct media_entity *entity)
{
	mutex_lock(&isp->mdev.graph_mutex);
	unlink_entity(entity);
	mutex_unlock(&isp->mdev.graph_mutex);
}
