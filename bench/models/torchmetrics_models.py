"""torchmetrics 1.9.0 (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

Written by bench/gen_devlib_specs.py, in sorted order and capped at 60: every multiclass_* function of
torchmetrics.functional.classification.__all__ whose parameters other than preds, target and num_classes have
defaults, with num_classes=4 on preds = softmax(randn(16, 4), -1) and target = randint(0, 4, (16,)); then every
function of torchmetrics.functional.regression.__all__ taking (preds, target) with every other parameter defaulted,
on preds = rand(16) + 0.5 and target = rand(16) + 0.5. Seed 0.
"""

LIBRARY = "torchmetrics"
PACKAGES = ["torchmetrics"]
DISTRIBUTIONS = ["torchmetrics", "torch"]
ENV = "benchenv"

CLASSIFICATION = ['multiclass_accuracy',
 'multiclass_auroc',
 'multiclass_average_precision',
 'multiclass_calibration_error',
 'multiclass_cohen_kappa',
 'multiclass_confusion_matrix',
 'multiclass_eer',
 'multiclass_exact_match',
 'multiclass_f1_score',
 'multiclass_hamming_distance',
 'multiclass_hinge_loss',
 'multiclass_jaccard_index',
 'multiclass_logauc',
 'multiclass_matthews_corrcoef',
 'multiclass_negative_predictive_value',
 'multiclass_precision',
 'multiclass_precision_recall_curve',
 'multiclass_recall',
 'multiclass_roc',
 'multiclass_specificity',
 'multiclass_stat_scores']
REGRESSION = ['concordance_corrcoef',
 'continuous_ranked_probability_score',
 'cosine_similarity',
 'explained_variance',
 'kendall_rank_corrcoef',
 'log_cosh_error',
 'mean_absolute_error',
 'mean_absolute_percentage_error',
 'mean_squared_error',
 'mean_squared_log_error',
 'normalized_root_mean_squared_error',
 'pearson_corrcoef',
 'r2_score',
 'relative_squared_error',
 'spearman_corrcoef',
 'symmetric_mean_absolute_percentage_error',
 'weighted_mean_absolute_percentage_error']
ALL_MODELS = CLASSIFICATION + REGRESSION
MODELS = list(ALL_MODELS)


def _models(torch, C, R):
    """One nn.Module class per model, written out so that the library calls stand in forward."""
    models = {}

    class multiclass_accuracy(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_accuracy(preds, target, num_classes=4)

    models['multiclass_accuracy'] = multiclass_accuracy

    class multiclass_auroc(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_auroc(preds, target, num_classes=4)

    models['multiclass_auroc'] = multiclass_auroc

    class multiclass_average_precision(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_average_precision(preds, target, num_classes=4)

    models['multiclass_average_precision'] = multiclass_average_precision

    class multiclass_calibration_error(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_calibration_error(preds, target, num_classes=4)

    models['multiclass_calibration_error'] = multiclass_calibration_error

    class multiclass_cohen_kappa(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_cohen_kappa(preds, target, num_classes=4)

    models['multiclass_cohen_kappa'] = multiclass_cohen_kappa

    class multiclass_confusion_matrix(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_confusion_matrix(preds, target, num_classes=4)

    models['multiclass_confusion_matrix'] = multiclass_confusion_matrix

    class multiclass_eer(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_eer(preds, target, num_classes=4)

    models['multiclass_eer'] = multiclass_eer

    class multiclass_exact_match(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_exact_match(preds, target, num_classes=4)

    models['multiclass_exact_match'] = multiclass_exact_match

    class multiclass_f1_score(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_f1_score(preds, target, num_classes=4)

    models['multiclass_f1_score'] = multiclass_f1_score

    class multiclass_hamming_distance(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_hamming_distance(preds, target, num_classes=4)

    models['multiclass_hamming_distance'] = multiclass_hamming_distance

    class multiclass_hinge_loss(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_hinge_loss(preds, target, num_classes=4)

    models['multiclass_hinge_loss'] = multiclass_hinge_loss

    class multiclass_jaccard_index(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_jaccard_index(preds, target, num_classes=4)

    models['multiclass_jaccard_index'] = multiclass_jaccard_index

    class multiclass_logauc(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_logauc(preds, target, num_classes=4)

    models['multiclass_logauc'] = multiclass_logauc

    class multiclass_matthews_corrcoef(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_matthews_corrcoef(preds, target, num_classes=4)

    models['multiclass_matthews_corrcoef'] = multiclass_matthews_corrcoef

    class multiclass_negative_predictive_value(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_negative_predictive_value(preds, target, num_classes=4)

    models['multiclass_negative_predictive_value'] = multiclass_negative_predictive_value

    class multiclass_precision(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_precision(preds, target, num_classes=4)

    models['multiclass_precision'] = multiclass_precision

    class multiclass_precision_recall_curve(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_precision_recall_curve(preds, target, num_classes=4)

    models['multiclass_precision_recall_curve'] = multiclass_precision_recall_curve

    class multiclass_recall(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_recall(preds, target, num_classes=4)

    models['multiclass_recall'] = multiclass_recall

    class multiclass_roc(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_roc(preds, target, num_classes=4)

    models['multiclass_roc'] = multiclass_roc

    class multiclass_specificity(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_specificity(preds, target, num_classes=4)

    models['multiclass_specificity'] = multiclass_specificity

    class multiclass_stat_scores(torch.nn.Module):
        def forward(self, preds, target):
            return C.multiclass_stat_scores(preds, target, num_classes=4)

    models['multiclass_stat_scores'] = multiclass_stat_scores

    class concordance_corrcoef(torch.nn.Module):
        def forward(self, preds, target):
            return R.concordance_corrcoef(preds, target)

    models['concordance_corrcoef'] = concordance_corrcoef

    class continuous_ranked_probability_score(torch.nn.Module):
        def forward(self, preds, target):
            return R.continuous_ranked_probability_score(preds, target)

    models['continuous_ranked_probability_score'] = continuous_ranked_probability_score

    class cosine_similarity(torch.nn.Module):
        def forward(self, preds, target):
            return R.cosine_similarity(preds, target)

    models['cosine_similarity'] = cosine_similarity

    class explained_variance(torch.nn.Module):
        def forward(self, preds, target):
            return R.explained_variance(preds, target)

    models['explained_variance'] = explained_variance

    class kendall_rank_corrcoef(torch.nn.Module):
        def forward(self, preds, target):
            return R.kendall_rank_corrcoef(preds, target)

    models['kendall_rank_corrcoef'] = kendall_rank_corrcoef

    class log_cosh_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.log_cosh_error(preds, target)

    models['log_cosh_error'] = log_cosh_error

    class mean_absolute_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.mean_absolute_error(preds, target)

    models['mean_absolute_error'] = mean_absolute_error

    class mean_absolute_percentage_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.mean_absolute_percentage_error(preds, target)

    models['mean_absolute_percentage_error'] = mean_absolute_percentage_error

    class mean_squared_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.mean_squared_error(preds, target)

    models['mean_squared_error'] = mean_squared_error

    class mean_squared_log_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.mean_squared_log_error(preds, target)

    models['mean_squared_log_error'] = mean_squared_log_error

    class normalized_root_mean_squared_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.normalized_root_mean_squared_error(preds, target)

    models['normalized_root_mean_squared_error'] = normalized_root_mean_squared_error

    class pearson_corrcoef(torch.nn.Module):
        def forward(self, preds, target):
            return R.pearson_corrcoef(preds, target)

    models['pearson_corrcoef'] = pearson_corrcoef

    class r2_score(torch.nn.Module):
        def forward(self, preds, target):
            return R.r2_score(preds, target)

    models['r2_score'] = r2_score

    class relative_squared_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.relative_squared_error(preds, target)

    models['relative_squared_error'] = relative_squared_error

    class spearman_corrcoef(torch.nn.Module):
        def forward(self, preds, target):
            return R.spearman_corrcoef(preds, target)

    models['spearman_corrcoef'] = spearman_corrcoef

    class symmetric_mean_absolute_percentage_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.symmetric_mean_absolute_percentage_error(preds, target)

    models['symmetric_mean_absolute_percentage_error'] = symmetric_mean_absolute_percentage_error

    class weighted_mean_absolute_percentage_error(torch.nn.Module):
        def forward(self, preds, target):
            return R.weighted_mean_absolute_percentage_error(preds, target)

    models['weighted_mean_absolute_percentage_error'] = weighted_mean_absolute_percentage_error
    return models


def build(name):
    import torch
    import torchmetrics.functional.classification as C
    import torchmetrics.functional.regression as R

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, C, R)[name]()
    if name in CLASSIFICATION:
        preds = torch.softmax(torch.randn(16, 4, generator=generator), -1)
        return model, (preds, torch.randint(0, 4, (16,), generator=generator)), {}
    return model, (torch.rand(16, generator=generator) + 0.5, torch.rand(16, generator=generator) + 0.5), {}
