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

MODELS = sorted(SPECS)


def build(name):
    import torch
    import monai.networks.nets as N

    source, shape = SPECS[name]
    model = eval(source, {"N": N, "torch": torch})
    generator = torch.Generator().manual_seed(0)
    return model, (torch.randn(*shape, generator=generator),), {}
