// SPDX-License-Identifier: GPL-2.0
/*
 * isp_links.c - the links of the ISP's media graph: created from the OF
 * graph of the device tree as entities appear, removed as they go, and the
 * rules an enabled link follows (one input per sink pad, no loops)
 */

#include <linux/of.h>
#include <linux/property.h>
#include <media/media-entity.h>
#include <media/v4l2-fwnode.h>

#include "isp.h"

/* -----------------------------------------------------------------------------
 * Link rules
 */

/**
 * isp_link_setup() - enforce one enabled input per sink pad
 * @entity: the entity whose link changes
 * @local: the pad of @entity at this end of the link
 * @remote: the pad at the other end
 * @flags: the requested link flags
 *
 * A sink pad of the OMAP3 ISP takes data from one source at a time, so
 * enabling a second link into a sink pad that already has an enabled one
 * fails with -EBUSY, as on the real hardware. Enabling a link that would
 * close a loop of enabled links fails with -EINVAL: frames in a loop have
 * no source (the mesh stress topologies have such loops of links).
 *
 * Return: 0, -EBUSY or -EINVAL.
 */
int isp_link_setup(struct media_entity *entity, const struct media_pad *local,
		   const struct media_pad *remote, u32 flags)
{
	struct media_link *link;

	if (!(local->flags & MEDIA_PAD_FL_SINK) ||
	    !(flags & MEDIA_LNK_FL_ENABLED))
		return 0;

	for_each_media_entity_data_link(entity, link) {
		if (link->sink != local || link->source == remote)
			continue;
		if (link->flags & MEDIA_LNK_FL_ENABLED)
			return -EBUSY;
	}
	if (isp_enabled_path(entity, remote->entity))
		return -EINVAL;
	return 0;
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

static bool sink_has_enabled_link(struct media_pad *sink)
{
	struct media_link *link;

	for_each_media_entity_data_link(sink->entity, link)
		if (link->sink == sink && (link->flags & MEDIA_LNK_FL_ENABLED))
			return true;
	return false;
}

/**
 * isp_enabled_path() - whether enabled links lead from one entity to another
 * @from: the entity where data would start
 * @to: the entity it would reach
 *
 * Follows enabled links downstream from @from. Enabling a link from an
 * entity A into an entity B closes a loop when isp_enabled_path(B, A): the
 * frames of such a loop would have no source. The walk visits each entity
 * at most once (entities are marked in a bitmap of the graph's ids).
 *
 * Return: true when @to is reached, false otherwise or when out of memory.
 */
bool isp_enabled_path(struct media_entity *from, struct media_entity *to)
{
	struct media_device *mdev = from->graph_obj.mdev;
	struct media_entity **stack, *entity;
	struct media_link *link;
	unsigned long *seen;
	unsigned int n = 0, max;
	bool found = false;

	if (from == to)
		return true;
	if (!mdev)
		return false;
	max = mdev->entity_internal_idx_max + 1;
	seen = bitmap_zalloc(max, GFP_KERNEL);
	stack = kcalloc(max, sizeof(*stack), GFP_KERNEL);
	if (!seen || !stack)
		goto out;

	stack[n++] = from;
	__set_bit(from->internal_idx, seen);
	while (n && !found) {
		entity = stack[--n];
		for_each_media_entity_data_link(entity, link) {
			struct media_entity *next = link->sink->entity;

			if (link->source->entity != entity ||
			    !(link->flags & MEDIA_LNK_FL_ENABLED) ||
			    next->internal_idx >= max ||
			    __test_and_set_bit(next->internal_idx, seen))
				continue;
			if (next == to) {
				found = true;
				break;
			}
			stack[n++] = next;
		}
	}
out:
	kfree(stack);
	bitmap_free(seen);
	return found;
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
	    sink_has_enabled_link(sink)) {
		dev_err(isp->dev, "%pfw: %s pad %u already has an enabled input\n",
			ep, sink->entity->name, sink->index);
		ret = -EINVAL;
		goto put_rep;
	}
	if (!isp->registered && (flags & MEDIA_LNK_FL_ENABLED) &&
	    isp_enabled_path(sink->entity, src->entity)) {
		dev_err(isp->dev, "%pfw: enabled links would loop through %s and %s\n",
			ep, src->entity->name, sink->entity->name);
		ret = -EINVAL;
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
