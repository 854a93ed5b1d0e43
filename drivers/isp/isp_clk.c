// SPDX-License-Identifier: GPL-2.0
/*
 * isp_clk.c - OMAP3 ISP camera clocks
 *
 * The ISP divides its functional clock cam_mclk (172.8 MHz) down to the
 * two external camera clocks cam_xclka and cam_xclkb (TCTRL_CTRL DIVA and
 * DIVB, 1..31 here). The N900 sensors run on 9.6 MHz (divider 18). The
 * ISP blocks run on cam_fck, cam_mclk itself. The ISP node is the clock
 * provider, #clock-cells = <1>: 0 cam_xclka, 1 cam_xclkb, 2 cam_fck. Each
 * consumer's enable count shows in /sys/kernel/debug/clk/clk_summary.
 */

#include <linux/clk-provider.h>
#include <linux/of.h>
#include <linux/slab.h>

#include "isp.h"

#define ISP_MCLK_RATE		172800000
#define ISP_XCLK_DIV_MAX	31

/**
 * struct isp_xclk - an external camera clock
 * @hw: the clock
 * @div: divider of cam_mclk, 1..ISP_XCLK_DIV_MAX
 */
struct isp_xclk {
	struct clk_hw hw;
	unsigned int div;
};

static inline struct isp_xclk *to_isp_xclk(struct clk_hw *hw)
{
	return container_of(hw, struct isp_xclk, hw);
}

static unsigned int xclk_div(unsigned long rate, unsigned long parent_rate)
{
	if (!rate)
		return ISP_XCLK_DIV_MAX;
	return clamp_t(unsigned long, DIV_ROUND_CLOSEST(parent_rate, rate), 1,
		       ISP_XCLK_DIV_MAX);
}

static unsigned long xclk_recalc_rate(struct clk_hw *hw,
				      unsigned long parent_rate)
{
	return parent_rate / to_isp_xclk(hw)->div;
}

static int xclk_determine_rate(struct clk_hw *hw, struct clk_rate_request *req)
{
	req->rate = req->best_parent_rate /
		    xclk_div(req->rate, req->best_parent_rate);
	return 0;
}

static int xclk_set_rate(struct clk_hw *hw, unsigned long rate,
			 unsigned long parent_rate)
{
	to_isp_xclk(hw)->div = xclk_div(rate, parent_rate);
	return 0;
}

static const struct clk_ops isp_xclk_ops = {
	.recalc_rate = xclk_recalc_rate,
	.determine_rate = xclk_determine_rate,
	.set_rate = xclk_set_rate,
};

static struct clk_hw *register_xclk(struct device *dev, const char *name,
				    const struct clk_hw *parent)
{
	struct clk_init_data init = {
		.name = name,
		.ops = &isp_xclk_ops,
		.parent_hws = &parent,
		.num_parents = 1,
	};
	struct isp_xclk *xclk;
	int ret;

	xclk = devm_kzalloc(dev, sizeof(*xclk), GFP_KERNEL);
	if (!xclk)
		return ERR_PTR(-ENOMEM);
	xclk->div = ISP_XCLK_DIV_MAX;
	xclk->hw.init = &init;
	ret = devm_clk_hw_register(dev, &xclk->hw);
	return ret ? ERR_PTR(ret) : &xclk->hw;
}

/**
 * isp_clk_init() - register the ISP's clocks and its clock provider
 * @isp: the ISP, during probe
 *
 * Return: 0 or a negative errno, after a dev_err() naming the node.
 */
int isp_clk_init(struct isp_device *isp)
{
	const char *names[ISP_CLK_NUM] = {
		[ISP_CLK_XCLKA] = "cam_xclka",
		[ISP_CLK_XCLKB] = "cam_xclkb",
		[ISP_CLK_FCK] = "cam_mclk",
	};
	struct device *dev = isp->dev;
	struct clk_hw_onecell_data *cells;
	struct clk_hw *mclk;
	unsigned int i;
	int ret;

	/* clock names are global: a second ISP must name its own */
	for (i = 0; i < ISP_CLK_NUM; i++)
		of_property_read_string_index(dev->of_node, "clock-output-names",
					      i, &names[i]);

	cells = devm_kzalloc(dev, struct_size(cells, hws, ISP_CLK_NUM),
			     GFP_KERNEL);
	if (!cells)
		return -ENOMEM;
	cells->num = ISP_CLK_NUM;

	mclk = devm_clk_hw_register_fixed_rate(dev, names[ISP_CLK_FCK], NULL, 0,
					       ISP_MCLK_RATE);
	if (IS_ERR(mclk)) {
		ret = PTR_ERR(mclk);
		goto err;
	}
	cells->hws[ISP_CLK_FCK] = mclk;
	for (i = ISP_CLK_XCLKA; i <= ISP_CLK_XCLKB; i++) {
		cells->hws[i] = register_xclk(dev, names[i], mclk);
		if (IS_ERR(cells->hws[i])) {
			ret = PTR_ERR(cells->hws[i]);
			goto err;
		}
	}

	ret = devm_of_clk_add_hw_provider(dev, of_clk_hw_onecell_get, cells);
	if (!ret)
		return 0;
err:
	dev_err(dev, "%pOF: cannot register the camera clocks (%d)\n",
		dev->of_node, ret);
	return ret;
}
