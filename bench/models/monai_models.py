"""MONAI medical-imaging networks, 2-D and 3-D, from small configs."""

LIBRARY = "monai"
PACKAGES = ["monai"]
DISTRIBUTIONS = ["monai", "torch"]
ENV = "benchenv"

SPECS = {
    "UNet": ("N.UNet(spatial_dims=2, in_channels=1, out_channels=2, channels=(4, 8, 16), strides=(2, 2), num_res_units=1)", (1, 1, 32, 32)),
    "BasicUNet": ("N.BasicUNet(spatial_dims=2, in_channels=1, out_channels=2, features=(4, 4, 8, 8, 16, 4))", (1, 1, 32, 32)),
    "AttentionUnet": ("N.AttentionUnet(spatial_dims=2, in_channels=1, out_channels=2, channels=(4, 8, 16), strides=(2, 2))", (1, 1, 32, 32)),
    "SegResNet": ("N.SegResNet(spatial_dims=2, init_filters=4, in_channels=1, out_channels=2)", (1, 1, 32, 32)),
    "DynUNet": ("N.DynUNet(spatial_dims=2, in_channels=1, out_channels=2, kernel_size=[3, 3, 3], strides=[1, 2, 2], upsample_kernel_size=[2, 2], filters=[4, 8, 16])", (1, 1, 32, 32)),
    "UNETR": ("N.UNETR(in_channels=1, out_channels=2, img_size=(32, 32), spatial_dims=2, feature_size=4, hidden_size=32, mlp_dim=64, num_heads=2)", (1, 1, 32, 32)),
    "SwinUNETR": ("N.SwinUNETR(in_channels=1, out_channels=2, spatial_dims=2, feature_size=12, depths=(1, 1, 1, 1), num_heads=(3, 3, 3, 3))", (1, 1, 64, 64)),
    "VNet": ("N.VNet(spatial_dims=3, in_channels=1, out_channels=2)", (1, 1, 32, 32, 32)),
    "HighResNet": ("N.HighResNet(spatial_dims=2, in_channels=1, out_channels=2)", (1, 1, 32, 32)),
    "DenseNet121": ("N.DenseNet121(spatial_dims=2, in_channels=1, out_channels=3)", (1, 1, 32, 32)),
    "ResNet": ("N.ResNet(block='basic', layers=[1, 1, 1, 1], block_inplanes=[4, 8, 16, 32], spatial_dims=2, n_input_channels=1, num_classes=3)", (1, 1, 32, 32)),
    "AutoEncoder": ("N.AutoEncoder(spatial_dims=2, in_channels=1, out_channels=1, channels=(4, 8), strides=(2, 2))", (1, 1, 32, 32)),
    "VarAutoEncoder": ("N.VarAutoEncoder(spatial_dims=2, in_shape=(1, 32, 32), out_channels=1, latent_size=4, channels=(4, 8), strides=(2, 2))", (1, 1, 32, 32)),
    "ViT": ("N.ViT(in_channels=1, img_size=(32, 32), patch_size=(8, 8), spatial_dims=2, hidden_size=32, mlp_dim=64, num_heads=2, num_layers=2, classification=True, num_classes=3)", (1, 1, 32, 32)),
    "Regressor": ("N.Regressor(in_shape=(1, 32, 32), out_shape=(2,), channels=(4, 8), strides=(2, 2))", (1, 1, 32, 32)),
    "SENet154-tiny": ("N.SEResNet50(spatial_dims=2, in_channels=1, num_classes=3, layers=(1, 1, 1, 1))", (1, 1, 64, 64)),
}

# Dev split growth (bench/SPLITS.md, 2026-11-25): every whole network of monai.networks.nets not above, 2-D
# where it supports that, smallest channel settings its constructor accepts, no weights. DAF3D is left out:
# it imports torchvision, which does not import in this venv.
X2 = (1, 1, 32, 32)
GROWTH = {
    "AHNet": ("N.AHNet(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, out_channels=2, psp_block_num=0)", (1, 1, 64, 64)),
    "AutoencoderKL": ("N.AutoencoderKL(spatial_dims=2, in_channels=1, out_channels=1, num_res_blocks=1, channels=(8, 8), attention_levels=(False, True), latent_channels=2, norm_num_groups=4)", X2),
    "BasicUNetPlusPlus": ("N.BasicUNetPlusPlus(spatial_dims=2, in_channels=1, out_channels=2, features=(4, 4, 8, 8, 16, 4))", X2),
    "Classifier": ("N.Classifier(in_shape=(1, 32, 32), classes=3, channels=(4, 8), strides=(2, 2))", X2),
    "ControlNet": ("N.ControlNet(spatial_dims=2, in_channels=1, num_res_blocks=1, channels=(8, 8), attention_levels=(False, True), norm_num_groups=4, num_head_channels=4, conditioning_embedding_num_channels=(8,))", "controlnet"),
    "Critic": ("N.Critic(in_shape=(1, 32, 32), channels=(4, 8), strides=(2, 2))", X2),
    "DecoderOnlyTransformer": ("N.DecoderOnlyTransformer(num_tokens=16, max_seq_len=8, attn_layers_dim=16, attn_layers_depth=1, attn_layers_heads=2)", "tokens"),
    "DenseNet": ("N.DenseNet(spatial_dims=2, in_channels=1, out_channels=3, init_features=8, growth_rate=4, block_config=(1, 1))", X2),
    "DenseNet169": ("N.DenseNet169(spatial_dims=2, in_channels=1, out_channels=3)", X2),
    "DenseNet201": ("N.DenseNet201(spatial_dims=2, in_channels=1, out_channels=3)", X2),
    "DenseNet264": ("N.DenseNet264(spatial_dims=2, in_channels=1, out_channels=3)", X2),
    "DiffusionModelUNet": ("N.DiffusionModelUNet(spatial_dims=2, in_channels=1, out_channels=1, num_res_blocks=1, channels=(8, 8), attention_levels=(False, True), norm_num_groups=4, num_head_channels=4)", "diffusion"),
    "Discriminator": ("N.Discriminator(in_shape=(1, 32, 32), channels=(4, 8), strides=(2, 2))", X2),
    "EfficientNetBN": ("N.EfficientNetBN('efficientnet-b0', pretrained=False, spatial_dims=2, in_channels=1, num_classes=3)", X2),
    "EfficientNetBNFeatures": ("N.EfficientNetBNFeatures('efficientnet-b0', pretrained=False, spatial_dims=2, in_channels=1, num_classes=3)", X2),
    "FlexibleUNet": ("N.FlexibleUNet(in_channels=1, out_channels=2, backbone='efficientnet-b0', pretrained=False, spatial_dims=2)", X2),
    "FullyConnectedNet": ("N.FullyConnectedNet(in_channels=8, out_channels=2, hidden_channels=(16, 16), dropout=0.1)", (2, 8)),
    "Generator": ("N.Generator(latent_shape=(8,), start_shape=(4, 8, 8), channels=(4, 1), strides=(2, 2))", (2, 8)),
    "GlobalNet": ("N.GlobalNet(image_size=[32, 32], spatial_dims=2, in_channels=2, num_channel_initial=4, depth=2)", (1, 2, 32, 32)),
    "HoVerNet": ("N.HoVerNet(mode='fast', in_channels=3, out_classes=3, decoder_padding=True)", (1, 3, 256, 256)),
    "LocalNet": ("N.LocalNet(spatial_dims=2, in_channels=2, num_channel_initial=4, extract_levels=(0, 1, 2), out_channels=2)", (1, 2, 32, 32)),
    "MaskedAutoEncoderViT": ("N.MaskedAutoEncoderViT(in_channels=1, img_size=(32, 32), patch_size=(8, 8), hidden_size=32, mlp_dim=64, num_layers=1, num_heads=2, decoder_hidden_size=16, decoder_mlp_dim=32, decoder_num_layers=1, decoder_num_heads=2, spatial_dims=2)", X2),
    "MedNeXt": ("N.MedNeXt(spatial_dims=2, init_filters=4, in_channels=1, out_channels=2, blocks_down=(1, 1, 1, 1), blocks_bottleneck=1, blocks_up=(1, 1, 1, 1))", X2),
    "MILModel": ("N.MILModel(num_classes=3, mil_mode='att_trans', pretrained=False, backbone=N.ResNet(block='basic', layers=[1, 1, 1, 1], block_inplanes=[4, 8, 16, 32], spatial_dims=2, n_input_channels=3, feed_forward=False), backbone_num_features=32, trans_blocks=1)", (1, 2, 3, 32, 32)),
    "MultiScalePatchDiscriminator": ("N.MultiScalePatchDiscriminator(num_d=2, num_layers_d=2, spatial_dims=2, channels=8, in_channels=1)", (1, 1, 64, 64)),
    "NaViT": ("N.NaViT(image_size=32, patch_size=8, num_classes=3, hidden_size=32, mlp_dim=64, num_layers=1, num_heads=2, spatial_dims=2)", "navit"),
    "PatchDiscriminator": ("N.PatchDiscriminator(spatial_dims=2, channels=8, in_channels=1, num_layers_d=2)", X2),
    "Quicknat": ("N.Quicknat(num_classes=3, num_channels=1, num_filters=8)", (1, 1, 64, 64)),
    "RegUNet": ("N.RegUNet(spatial_dims=2, in_channels=2, num_channel_initial=4, depth=2, out_channels=2)", (1, 2, 32, 32)),
    "SENet154": ("N.SENet154(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, num_classes=3)", (1, 1, 64, 64)),
    "SEResNeXt50": ("N.SEResNeXt50(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, num_classes=3)", (1, 1, 64, 64)),
    "SEResNet101": ("N.SEResNet101(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, num_classes=3)", (1, 1, 64, 64)),
    "SPADEAutoencoderKL": ("N.SPADEAutoencoderKL(spatial_dims=2, label_nc=3, in_channels=1, out_channels=1, num_res_blocks=1, channels=(8, 8), attention_levels=(False, False), latent_channels=2, norm_num_groups=4)", "spade_ae"),
    "SPADEDiffusionModelUNet": ("N.SPADEDiffusionModelUNet(spatial_dims=2, in_channels=1, out_channels=1, label_nc=3, num_res_blocks=1, channels=(8, 8), attention_levels=(False, True), norm_num_groups=4, num_head_channels=4)", "spade_unet"),
    "SPADENet": ("N.SPADENet(spatial_dims=2, in_channels=1, out_channels=1, label_nc=3, input_shape=(32, 32), channels=[8, 16], z_dim=4, spade_intermediate_channels=8)", "spade_net"),
    "SegResNetDS": ("N.SegResNetDS(spatial_dims=2, init_filters=4, in_channels=1, out_channels=2, blocks_down=(1, 1, 1))", X2),
    "SegResNetDS2": ("N.SegResNetDS2(spatial_dims=2, init_filters=4, in_channels=1, out_channels=2, blocks_down=(1, 1, 1))", X2),
    "SegResNetVAE": ("N.SegResNetVAE(input_image_size=(32, 32), vae_nz=8, spatial_dims=2, init_filters=8, in_channels=1, out_channels=2)", X2),
    "VQVAE": ("N.VQVAE(spatial_dims=2, in_channels=1, out_channels=1, channels=(8, 8), num_res_layers=1, num_res_channels=(8, 8), downsample_parameters=((2, 4, 1, 1), (2, 4, 1, 1)), upsample_parameters=((2, 4, 1, 1, 0), (2, 4, 1, 1, 0)), num_embeddings=16, embedding_dim=4)", X2),
    "VarFullyConnectedNet": ("N.VarFullyConnectedNet(in_channels=8, out_channels=2, latent_size=4, encode_channels=(16,), decode_channels=(16,))", (2, 8)),
    "ViTAutoEnc": ("N.ViTAutoEnc(in_channels=1, img_size=(32, 32), patch_size=(4, 4), out_channels=1, deconv_chns=4, hidden_size=32, mlp_dim=64, num_layers=1, num_heads=2, spatial_dims=2)", X2),
    "VoxelMorph": ("N.VoxelMorph(backbone=N.VoxelMorphUNet(spatial_dims=2, in_channels=2, unet_out_channels=4, channels=(4, 8, 8, 8), final_conv_channels=(4, 4)), integration_steps=2, spatial_dims=2)", "pair"),
    "VoxelMorphUNet": ("N.VoxelMorphUNet(spatial_dims=2, in_channels=2, unet_out_channels=4, channels=(4, 8, 8, 8), final_conv_channels=(4, 4))", (1, 2, 32, 32)),
    "EfficientNet": ("N.EfficientNet(['r1_k3_s11_e1_i32_o16_se0.25', 'r1_k3_s22_e6_i16_o24_se0.25'], spatial_dims=2, in_channels=1, num_classes=3, image_size=32)", X2),
    "DiNTS": ("N.DiNTS(N.TopologyInstance(channel_mul=0.25, num_blocks=2, num_depths=2, spatial_dims=2, use_downsample=True), in_channels=1, num_classes=2, spatial_dims=2)", X2),
    "SEResNet152": ("N.SEResNet152(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, num_classes=3)", (1, 1, 64, 64)),
    "SEResNeXt101": ("N.SEResNeXt101(layers=(1, 1, 1, 1), spatial_dims=2, in_channels=1, num_classes=3)", (1, 1, 64, 64)),
    "SENet": ("N.SENet(spatial_dims=2, in_channels=1, block='se_bottleneck', layers=(1, 1, 1, 1), groups=4, reduction=4, inplanes=16, num_classes=3)", (1, 1, 64, 64)),
    "ResNetFeatures": ("N.ResNetFeatures('resnet10', pretrained=False, spatial_dims=2, in_channels=1)", X2),
    "ResNetEncoder": ("N.ResNetEncoder('resnet10', pretrained=False, spatial_dims=2, in_channels=1)", X2),
    "EfficientNetEncoder": ("N.EfficientNetEncoder('efficientnet-b0', pretrained=False, spatial_dims=2, in_channels=1)", X2),
    "HyenaNDUNETR": ("N.HyenaNDUNETR(in_channels=1, out_channels=2, hyena_stages=(True, False, False, False), feature_size=12, spatial_dims=2)", (1, 1, 64, 64)),
}
assert not set(GROWTH) & set(SPECS)
SPECS.update(GROWTH)

MODELS = sorted(SPECS)


def build(name):
    import torch
    import monai.networks.nets as N

    source, shape = SPECS[name]
    model = eval(source, {"N": N, "torch": torch})
    generator = torch.Generator().manual_seed(0)

    def r(*size):
        return torch.randn(*size, generator=generator)

    image, timesteps = r(1, 1, 32, 32), torch.tensor([10])
    labels = torch.softmax(r(1, 3, 32, 32), dim=1)
    if shape == "controlnet":
        return model, (image, timesteps, r(1, 1, 32, 32)), {}
    if shape == "diffusion":
        return model, (image, timesteps), {}
    if shape == "tokens":
        return model, (torch.randint(0, 16, (2, 8), generator=generator),), {}
    if shape == "navit":
        return model, ([[r(1, 32, 32), r(1, 16, 24)], [r(1, 24, 16)]],), {}
    if shape == "spade_ae":
        return model, (image, labels), {}
    if shape == "spade_unet":
        return model, (image, timesteps, labels), {}
    if shape == "spade_net":
        return model, (labels, image), {}
    if shape == "pair":
        return model, (image, r(1, 1, 32, 32)), {}
    return model, (r(*shape),), {}
