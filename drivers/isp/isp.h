/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isp.h - shared declarations of the emulated OMAP3 ISP (N900 camera)
 *
 * Every ISP block (CSI2a, CCP2, CCDC, LSC, WB, preview, resizer, H3A AEWB,
 * H3A AF, histogram) is a child node of the ISP in the device tree, gets its
 * own platform device, and registers a V4L2 subdevice through v4l2-async.
 * The block files only describe their block (struct isp_block_type); the
 * generic code in isp_block.c turns a description into a subdevice.
 */
#ifndef N900_ISP_H
#define N900_ISP_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <media/media-device.h>
#include <media/v4l2-async.h>
#include <media/v4l2-ctrls.h>
#include <media/v4l2-dev.h>
#include <media/v4l2-device.h>
#include <media/v4l2-subdev.h>
#include <media/videobuf2-v4l2.h>

#include "n900_subdev.h"

#define ISP_DRIVER_NAME		"n900-isp"
#define ISP_MODEL		"TI OMAP3 ISP (N900 emulation)"

#define ISP_MAX_PADS		4

/* Frame size limits shared by every block (OMAP3 ISP TRM, 12.2.x). */
#define ISP_MIN_WIDTH		32
#define ISP_MIN_HEIGHT		32
#define ISP_MAX_WIDTH		4096
#define ISP_MAX_HEIGHT		4096
#define ISP_DEF_WIDTH		640
#define ISP_DEF_HEIGHT		480

/*
 * The DMA limits of an image video node: the frame sizes TRY_FMT and S_FMT
 * give, ENUM_FRAMESIZES reports (V4L2_FRMSIZE_TYPE_STEPWISE) and its
 * buffers are sized for, whatever the pipeline. Widths go in steps of 2:
 * a frame is worked on in pixel pairs (a YUV 4:2:2 macropixel, a Bayer
 * pair), so an odd-width source frame renders one pixel short and could
 * never fill an odd-width buffer.
 */
#define ISP_VIDEO_MIN_WIDTH	ISP_MIN_WIDTH
#define ISP_VIDEO_MAX_WIDTH	ISP_MAX_WIDTH
#define ISP_VIDEO_STEP_WIDTH	2
#define ISP_VIDEO_MIN_HEIGHT	ISP_MIN_HEIGHT
#define ISP_VIDEO_MAX_HEIGHT	ISP_MAX_HEIGHT
#define ISP_VIDEO_STEP_HEIGHT	1

/* Device tree properties of an endpoint that set the link flags. */
#define ISP_DT_LINK_ENABLED	"n900emu,link-enabled"
#define ISP_DT_LINK_IMMUTABLE	"n900emu,link-immutable"

/**
 * struct isp_code_map - a media bus code a source pad can produce
 * @pad: the source pad
 * @sink: the code on the sink pad (pad 0)
 * @source: a code @pad can output from @sink
 */
struct isp_code_map {
	unsigned int pad;
	u32 sink;
	u32 source;
};

/**
 * enum isp_stage - the processing stages of a frame, timed per frame
 * @ISP_STAGE_SOURCE: the source: a sensor's scene and its noise, or a raw
 *	frame from memory
 * @ISP_STAGE_LINE: the line stages (CCDC, LSC and WB), one pass
 * @ISP_STAGE_RAW_OUT: the CCDC output formatter's write to memory
 * @ISP_STAGE_PREVIEW: the preview engine
 * @ISP_STAGE_RESIZER: the resizer
 * @ISP_STAGE_STATS: a statistics engine
 * @ISP_STAGE_NUM: the number of stages
 */
enum isp_stage {
	ISP_STAGE_SOURCE,
	ISP_STAGE_LINE,
	ISP_STAGE_RAW_OUT,
	ISP_STAGE_PREVIEW,
	ISP_STAGE_RESIZER,
	ISP_STAGE_STATS,
	ISP_STAGE_NUM
};

/**
 * enum isp_data - what flows from one stage of a frame to the next
 * @ISP_DATA_RAW: 10-bit Bayer GRBG samples, 16 bits each
 * @ISP_DATA_YUV: YUV 4:2:2, 2 bytes a pixel (YUYV or UYVY, the capture
 *	node's order)
 * @ISP_DATA_STATS: a statistics buffer (n900_isp_stats.h)
 */
enum isp_data {
	ISP_DATA_RAW,
	ISP_DATA_YUV,
	ISP_DATA_STATS,
};

/**
 * struct isp_image - a frame between two stages, or in a buffer
 * @data: the first byte of line 0
 * @width: pixels per line
 * @height: lines
 * @stride: bytes from one line to the next
 * @narrow: raw samples of at most 10 bits (PIX_RAW_MAX), as the sensor and
 *	the line stages give them; false for a raw10 frame from memory, which
 *	may have any 16-bit samples
 */
struct isp_image {
	void *data;
	unsigned int width;
	unsigned int height;
	size_t stride;
	bool narrow;
};

/*
 * Each pass over the lines of a frame is split in ISP_FRAME_PARTS parts,
 * one per vCPU of the guest: a stage's lines of one part never share
 * scratch memory with those of another.
 */
#define ISP_FRAME_PARTS		2

/*
 * The lines a stage runs in one kernel_neon_begin() .. kernel_neon_end()
 * section (isp_frame_neon_usable()): enough that the two cost nothing a
 * line (under TCG each is a few microseconds), few enough that softirqs
 * wait about a millisecond at most (16 lines of 1296 samples through the
 * line stages or the resizer take about 0.3 ms under TCG: 1280x960
 * frames in 4.0-4.6 ms a pass on two CPUs; lines of 4096, three times
 * that).
 */
#define ISP_NEON_LINES		16

struct isp_block;
struct isp_video;

/**
 * struct isp_frame_stage - a block on the path of a streaming capture node
 * @block: the block
 * @pad: the source pad the path leaves @block by
 * @video: the capture node at the end of the path
 * @in: the frame the stage reads; its @data is set before every pass of a
 *	frame stage (&isp_frame_ops.process_lines, .process_stats)
 * @out: the frame the stage writes; its size is that of @in unless
 *	&isp_frame_ops.start changes it, its @data is set before every pass
 * @crop: the part of a raw @out the memory writer takes, when the path
 *	ends in memory after this stage: all of @out unless
 *	&isp_frame_ops.start narrows it
 * @priv: &isp_frame_ops.priv_size bytes for the block's parameters of this
 *	stream (zeroed); freed with the stage
 */
struct isp_frame_stage {
	struct isp_block *block;
	unsigned int pad;
	struct isp_video *video;
	struct isp_image in;
	struct isp_image out;
	struct v4l2_rect crop;
	void *priv;
};

/**
 * enum isp_chain - the places of &struct pix_line_chain, in its order
 * @ISP_CHAIN_NONE: not a line stage of the chain
 * @ISP_CHAIN_CCDC: &pix_line_chain.ccdc
 * @ISP_CHAIN_LSC: &pix_line_chain.lsc
 * @ISP_CHAIN_WB: &pix_line_chain.wb
 */
enum isp_chain {
	ISP_CHAIN_NONE,
	ISP_CHAIN_CCDC,
	ISP_CHAIN_LSC,
	ISP_CHAIN_WB,
};

/**
 * struct isp_frame_ops - what a block does to the frames through it
 * @input: what the block takes
 * @output: what it gives: %ISP_DATA_RAW for a line stage, the data of its
 *	output for a frame stage, %ISP_DATA_STATS for a statistics engine
 * @stage: the row of the per-stage timing (debugfs "frames") a frame
 *	stage or a statistics engine is accounted in; the line stages are
 *	accounted together (%ISP_STAGE_LINE)
 * @priv_size: the size of &isp_frame_stage.priv
 * @stats_size: the size of the statistics buffer (statistics engines)
 * @start: at STREAMON, after the path is known: read the block's pads
 *	(crop rectangles, sizes) into @stage->priv, set @stage->out and
 *	@stage->crop where they are not those of @stage->in, and check them.
 *	Called with the graph mutex held. Returns 0, or -EPIPE when the pads
 *	do not fit the frame of the path. Optional.
 * @configure_frame: before each frame: read the block's controls into its
 *	pixel parameters in @stage->priv, so that a changed control shows in
 *	the next frame. Optional.
 * @process_line: a line stage: raw line @y, @stage->in.width samples, in
 *	place. The line stages run in one pass after the source's, line by
 *	line, and lines of the same pass may run on other CPUs at the same
 *	time.
 * @chain: a line stage that pix_line_chain() knows: its place in
 *	&struct pix_line_chain, whose pointer there is @stage->priv (of the
 *	place's type: struct pix_ccdc, pix_lsc or pix_wb). When every line
 *	stage of a path has one, in the chain's order, the pass runs
 *	pix_line_chain() instead of each @process_line in turn, so a block
 *	with a place does in @process_line exactly what its pix_*_line()
 *	does (n900_isp.fuse_lines=0 runs @process_line, and frames.sh checks
 *	both). %ISP_CHAIN_NONE otherwise.
 * @process_lines: a frame stage: lines @y0 to @y1 (excluded) of
 *	@stage->out, from the whole of @stage->in, with the scratch memory of
 *	part @part (0 to ISP_FRAME_PARTS - 1) of the pass, if it needs any
 * @process_stats: a statistics engine: the statistics of the whole of
 *	@stage->in into @buf, &isp_frame_ops.stats_size bytes
 *
 * A block has exactly one of @process_line, @process_lines and
 * @process_stats. Its arithmetic belongs in isp_pixel.c, which the host
 * reference model shares.
 */
struct isp_frame_ops {
	enum isp_data input;
	enum isp_data output;
	enum isp_stage stage;
	enum isp_chain chain;
	size_t priv_size;
	size_t stats_size;
	int (*start)(struct isp_frame_stage *stage);
	void (*configure_frame)(struct isp_frame_stage *stage);
	void (*process_line)(struct isp_frame_stage *stage, unsigned int y,
			     u16 *line);
	void (*process_lines)(struct isp_frame_stage *stage, unsigned int part,
			      unsigned int y0, unsigned int y1);
	void (*process_stats)(struct isp_frame_stage *stage, void *buf);
};

/**
 * struct isp_block_type - what distinguishes one kind of ISP block
 * @name: default entity name, overridden by the node's "label" property
 * @function: media entity function (MEDIA_ENT_F_*)
 * @num_pads: number of pads; DT port N is pad N. Pad 0 is the sink. 0:
 *	as many as the node's ports, pad 0 a sink and the others sources
 * @pad_flags: MEDIA_PAD_FL_* of each pad (unused when @num_pads is 0)
 * @codes: media bus codes the sink pad accepts
 * @num_codes: number of entries in @codes
 * @code_map: codes the source pads produce from a sink code; a source pad
 *	with no entry for the sink code outputs the sink code
 * @num_code_maps: number of entries in @code_map
 * @any_input: the sink pad takes the frames its source sends, whatever the
 *	format (the statistics engines): its link is not validated
 * @crop_pads: BIT(N) when pad N has a CROP selection. A crop on the sink
 *	pad is the input of every source pad; a crop on a source pad is that
 *	pad's output size.
 * @source_size: adjust a requested source size to what the block can
 *	produce from an input of @in_width x @in_height (the sink format, or
 *	the sink crop); NULL when the source size is the input size
 * @init_controls: add the block's controls to @hdl (already initialised);
 *	NULL for a block without controls
 * @frame_ops: what the block does to frames (isp_frame.c); NULL for a
 *	block that passes them on unchanged
 */
struct isp_block_type {
	const char *name;
	u32 function;
	unsigned int num_pads;
	unsigned long pad_flags[ISP_MAX_PADS];
	const u32 *codes;
	unsigned int num_codes;
	const struct isp_code_map *code_map;
	unsigned int num_code_maps;
	bool any_input;
	unsigned long crop_pads;
	void (*source_size)(u32 in_width, u32 in_height, u32 *width,
			    u32 *height);
	void (*init_controls)(struct v4l2_ctrl_handler *hdl);
	const struct isp_frame_ops *frame_ops;
};

/**
 * struct isp_block - one ISP block instance, a V4L2 subdevice
 * @subdev: the subdevice, whose entity is the block's media entity, and
 *	its lifetime (n900_subdev.h): an open node keeps the block
 * @pads: media pads
 * @num_pads: number of entries in @pads
 * @type: the block description
 * @ctrls: the block's controls, when @type has any
 * @isp: the ISP whose child the block is; the block holds a reference to
 *	its v4l2_device, so the ISP's shared state lock outlives the block
 */
struct isp_block {
	struct n900_subdev subdev;
	struct media_pad *pads;
	unsigned int num_pads;
	const struct isp_block_type *type;
	struct v4l2_ctrl_handler ctrls;
	struct isp_device *isp;
};

/*
 * The statistics engines (H3A AEWB, H3A AF, histogram): pad 0 samples raw
 * frames from the CCDC video port, pad 1 gives the statistics buffers
 * (MEDIA_BUS_FMT_METADATA_FIXED) to a metadata capture node.
 */
#define ISP_STAT_PAD_SINK	0
#define ISP_STAT_PAD_SOURCE	1
#define ISP_STAT_PADS_NUM	2
extern const struct isp_code_map isp_stat_code_map[2];

extern const struct isp_block_type isp_csi2_type;
extern const struct isp_block_type isp_ccp2_type;
extern const struct isp_block_type isp_ccdc_type;
extern const struct isp_block_type isp_lsc_type;
extern const struct isp_block_type isp_wb_type;
extern const struct isp_block_type isp_preview_type;
extern const struct isp_block_type isp_resizer_type;
extern const struct isp_block_type isp_h3a_aewb_type;
extern const struct isp_block_type isp_h3a_af_type;
extern const struct isp_block_type isp_hist_type;
extern const struct isp_block_type isp_passthrough_type;

extern struct platform_driver isp_block_driver;
extern const struct v4l2_ctrl_ops isp_block_ctrl_ops;

/**
 * struct isp_buffer - a video buffer queued on an ISP video node
 * @vb: the vb2 buffer
 * @list: entry in &isp_video.dmaqueue
 */
struct isp_buffer {
	struct vb2_v4l2_buffer vb;
	struct list_head list;
};

static inline struct isp_buffer *to_isp_buffer(struct vb2_v4l2_buffer *vbuf)
{
	return container_of(vbuf, struct isp_buffer, vb);
}

/**
 * struct isp_stage_stats - time spent in each stage, and pixels produced
 * @ns: nanoseconds per stage
 * @pixels: output pixels per stage
 */
struct isp_stage_stats {
	u64 ns[ISP_STAGE_NUM];
	u64 pixels[ISP_STAGE_NUM];
};

/**
 * struct isp_video - a memory input or output of the ISP (/dev/videoN)
 * @vdev: the video device
 * @pad: its single pad: a sink for capture nodes, a source for output nodes
 * @queue: vb2 queue
 * @lock: serialises ioctls and the queue
 * @format: current pixel format; for a metadata node, only its sizeimage
 *	(the statistics buffer size) is used
 * @formats: the pixel formats an image node offers, BIT(i) for entry i of
 *	the ISP's format table: those whose media bus code the pad its DT
 *	port links to can ever carry; fixed at init, whatever the pipeline
 * @meta: the metadata format of a statistics capture node, NULL for an
 *	image node
 * @fwnode: the DT node that describes this video node
 * @isp: the ISP it belongs to
 * @irqlock: protects @dmaqueue
 * @dmaqueue: buffers queued by userspace, not yet processed
 * @thread: the frame thread while streaming
 * @frame: what the frame thread renders (isp_frame.c), NULL for a node
 *	whose path starts at no source
 * @sequence: sequence number of the next frame
 * @feed_lock: serialises taking a buffer of this (output) node, returning
 *	its buffers, and @started, @feeding and @sequence while it streams
 * @started: its STREAMON has succeeded and it has not stopped since: a
 *	capture node takes buffers of this (output) node only then, not
 *	those vb2 queues to the driver before a STREAMON that then fails
 * @feeding: the number of streaming capture nodes whose memory-to-memory
 *	path starts at this output node; it consumes no buffer of its own
 *	while there are any
 * @rendered: frames rendered since the last STREAMON (under @irqlock)
 * @stages: their time per stage (under @irqlock), for debugfs "frames"
 */
struct isp_video {
	struct video_device vdev;
	struct media_pad pad;
	struct vb2_queue queue;
	struct mutex lock;		/* serialises ioctls and the queue */
	struct v4l2_pix_format format;
	unsigned long formats;
	const struct isp_meta_format *meta;
	struct fwnode_handle *fwnode;
	struct isp_device *isp;
	spinlock_t irqlock;		/* protects dmaqueue */
	struct list_head dmaqueue;
	struct task_struct *thread;
	struct isp_frame *frame;
	u32 sequence;
	struct mutex feed_lock;		/* buffers, started, feeding, seq */
	bool started;
	unsigned int feeding;
	u32 rendered;
	struct isp_stage_stats stages;
};

/**
 * struct isp_device - the emulated OMAP3 ISP
 * @dev: the ISP platform device
 * @mdev: media device (/dev/mediaN)
 * @v4l2_dev: V4L2 device every subdevice registers with
 * @notifier: v4l2-async notifier collecting every device of the graph
 * @videos: video nodes, created from the DT children "n900emu,isp-video"
 * @num_videos: number of entries in @videos
 * @registered: the media device and subdevice nodes are registered
 * @stream_lock: serialises pipeline start and stop across video nodes, and
 *	with the streams' stop when an entity goes away
 * @pm_lock: serialises the pipeline power of open video nodes with the
 *	media device's unregistration (taken before the graph mutex)
 * @unregistered: the media device is unregistered: open nodes no longer
 *	power anything (under @pm_lock)
 * @open_nodes: video node file handles holding pipeline power; while
 *	there are none, a link change has nothing to power
 * @state_lock: the state lock of every ISP block (v4l2_subdev.state_lock):
 *	link validation locks two blocks' states at once, and blocks of one
 *	type are linked to each other in the stress topologies
 * @debugfs: the media device's debugfs directory
 * @ranks: each entity's rank in the topological order of the enabled
 *	links, by internal index, 0 for none yet (isp_links.c, "No loops";
 *	under the graph mutex, as @num_ranks and @next_rank)
 * @num_ranks: number of entries in @ranks
 * @next_rank: the last rank given
 */
struct isp_device {
	struct device *dev;
	struct media_device mdev;
	struct v4l2_device v4l2_dev;
	struct v4l2_async_notifier notifier;
	struct isp_video *videos;
	unsigned int num_videos;
	bool registered;
	struct mutex stream_lock;	/* pipeline start and stop */
	struct mutex pm_lock;		/* open nodes' power, unregistration */
	bool unregistered;
	atomic_t open_nodes;
	struct mutex state_lock;	/* every block's subdevice state */
	struct dentry *debugfs;
	u64 *ranks;
	unsigned int num_ranks;
	u64 next_rank;
};

/* Clock provider cells of the ISP node (isp_clk.c) */
enum {
	ISP_CLK_XCLKA,
	ISP_CLK_XCLKB,
	ISP_CLK_FCK,
	ISP_CLK_NUM
};

/* isp_clk.c */
int isp_clk_init(struct isp_device *isp);

/* isp_core.c */
struct isp_device *isp_of_block(struct device *dev);
int isp_link_notify(struct media_link *link, u32 flags,
		    unsigned int notification);

/* isp_ceiling.c */
void isp_ceiling_debugfs(struct dentry *root);

/* isp_debugfs.c */
void isp_debugfs_init(struct isp_device *isp);
void isp_debugfs_cleanup(struct isp_device *isp);
void isp_debugfs_root_init(void);
void isp_debugfs_root_cleanup(void);

/* isp_block.c */
struct isp_block *isp_block_of(struct media_entity *entity);
const struct isp_block_type *isp_block_type_of(struct fwnode_handle *fwnode);
bool isp_block_pad_can_carry(const struct isp_block_type *type,
			     unsigned int pad, u32 code);
void isp_block_source_rect(struct isp_block *block, unsigned int pad,
			   struct v4l2_rect *r);

/* isp_links.c */
struct media_entity *isp_find_entity(struct isp_device *isp,
				     struct fwnode_handle *fwnode);
int isp_create_links(struct isp_device *isp, struct media_entity *entity,
		     struct fwnode_handle *fwnode);
void isp_unlink_entity(struct isp_device *isp, struct media_entity *entity);
struct media_entity *isp_links_join(struct isp_device *isp,
				    struct fwnode_handle *fwnode,
				    struct media_pipeline *pipe);
bool isp_entity_checks_loops(struct media_entity *entity);
int isp_link_order(struct isp_device *isp, struct media_entity *source,
		   struct media_entity *sink);
int isp_link_setup(struct media_entity *entity, const struct media_pad *local,
		   const struct media_pad *remote, u32 flags);

/**
 * struct isp_meta_format - what a metadata capture node delivers
 * @name: the value of its DT "n900emu,metadata" property
 * @dataformat: V4L2_META_FMT_N900_* (n900_isp_stats.h)
 * @description: its ENUM_FMT description (the V4L2 core knows only its own
 *	formats, and warns about any other without one)
 * @buffersize: size of the statistics buffer
 */
struct isp_meta_format {
	const char *name;
	u32 dataformat;
	const char *description;
	u32 buffersize;
};

/* isp_frame.c */

s32 isp_block_ctrl_value(struct isp_block *block, u32 id, s32 def);
int isp_frame_check_rect(struct isp_frame_stage *stage, const char *what,
			 const struct v4l2_rect *r);

/* the frame interval of a path with no sensor (memory input, test ramp) */
#define ISP_FRAME_INTERVAL_NS	(NSEC_PER_SEC / 30)

struct isp_frame;
struct isp_frame *isp_frame_create(struct isp_video *video);
void isp_frame_destroy(struct isp_frame *f);
void isp_frame_render(struct isp_frame *f, const struct v4l2_pix_format *pix,
		      u8 *mem, const u8 *in, u32 sequence,
		      struct isp_stage_stats *st);
u64 isp_frame_interval_ns(struct isp_frame *f);
struct isp_video *isp_frame_input(struct isp_frame *f);
size_t isp_frame_input_size(struct isp_frame *f);
bool isp_frame_neon_usable(void);
int isp_frame_init(void);
void isp_frame_exit(void);

/* isp_video.c */
int isp_video_init(struct isp_device *isp, struct isp_video *video,
		   struct fwnode_handle *fwnode);
int isp_video_register(struct isp_video *video);
void isp_video_init_format(struct isp_video *video);
void isp_video_unregister(struct isp_video *video);
void isp_video_cleanup(struct isp_video *video);
int isp_video_check_format(struct isp_video *video);

/* isp_stream.c */
extern const struct vb2_ops isp_video_queue_ops;
void isp_video_entity_gone(struct isp_video *video,
			   struct media_entity *entity);
void isp_video_entity_joins(struct isp_video *video, struct v4l2_subdev *sd);
void isp_video_park(struct isp_video *video, bool park);
bool isp_entity_in_pipeline(struct media_entity *entity,
			    struct media_pipeline *pipe);

#endif /* N900_ISP_H */
