"""torch.distributions (dev split, bench/SPLITS.md "Dev split growth with new libraries (2026-11-26)").

The library root is the sub-package torch/distributions of torch 2.13.0+cpu (not the rest of torch).
Written by bench/gen_devlib_specs.py: one model per Distribution class of torch.distributions.__all__ that can be
built from tensors that satisfy its arg_constraints (each passed parameter
transform_to(constraint)(randn(shape)), batch (4,), event size 3), whose forward builds it with validate_args=True,
draws rsample() (sample() without one) and returns log_prob of it summed (plus entropy() where implemented), and
the same with validate_args=False (`_unvalidated`, added after the first observation: the validation's first
break sends the rest of a torch-internal frame to eager, where Dynamo never traces torch's own files); and
one model per Transform class of torch.distributions.transforms.__all__ constructible with no arguments,
returning t(x), log_abs_det_jacobian and inv (where implemented).
Left out by the rule:
  Distribution (arg_constraints is a property of the instance)
  ExponentialFamily (arg_constraints is a property of the instance)
  Independent (required parameter(s) not in arg_constraints: base_distribution, reinterpreted_batch_ndims)
  LKJCholesky (required parameter(s) not in arg_constraints: dim)
  MixtureSameFamily (required parameter(s) not in arg_constraints: mixture_distribution, component_distribution)
  RelaxedBernoulli (required parameter(s) not in arg_constraints: temperature)
  RelaxedOneHotCategorical (required parameter(s) not in arg_constraints: temperature)
  Uniform (arg_constraints is a property of the instance)
  Wishart (arg_constraints is a property of the instance)
  TransformedDistribution (required parameter(s) not in arg_constraints: base_distribution, transforms)
"""

LIBRARY = "torch.distributions"
PACKAGES = ["torch.distributions"]
DISTRIBUTIONS = ["torch"]
ENV = "benchenv"

# Distribution -> the parameters passed, each with its constraint's event_dim (shape (4,), (4, 3), (4, 3, 3)).
DISTS = {'Bernoulli': [('probs', 0)],
 'Beta': [('concentration1', 0), ('concentration0', 0)],
 'Binomial': [('probs', 0)],
 'Categorical': [('probs', 1)],
 'Cauchy': [('loc', 0), ('scale', 0)],
 'Chi2': [('df', 0)],
 'ContinuousBernoulli': [('probs', 0)],
 'Dirichlet': [('concentration', 1)],
 'Exponential': [('rate', 0)],
 'FisherSnedecor': [('df1', 0), ('df2', 0)],
 'Gamma': [('concentration', 0), ('rate', 0)],
 'GeneralizedPareto': [('loc', 0), ('scale', 0), ('concentration', 0)],
 'Geometric': [('probs', 0)],
 'Gumbel': [('loc', 0), ('scale', 0)],
 'HalfCauchy': [('scale', 0)],
 'HalfNormal': [('scale', 0)],
 'InverseGamma': [('concentration', 0), ('rate', 0)],
 'Kumaraswamy': [('concentration1', 0), ('concentration0', 0)],
 'Laplace': [('loc', 0), ('scale', 0)],
 'LogNormal': [('loc', 0), ('scale', 0)],
 'LogisticNormal': [('loc', 0), ('scale', 0)],
 'LowRankMultivariateNormal': [('loc', 1), ('cov_factor', 2), ('cov_diag', 1)],
 'Multinomial': [('probs', 1)],
 'MultivariateNormal': [('loc', 1), ('covariance_matrix', 2)],
 'NegativeBinomial': [('total_count', 0), ('probs', 0)],
 'Normal': [('loc', 0), ('scale', 0)],
 'OneHotCategorical': [('probs', 1)],
 'OneHotCategoricalStraightThrough': [('probs', 1)],
 'Pareto': [('scale', 0), ('alpha', 0)],
 'Poisson': [('rate', 0)],
 'StudentT': [('df', 0)],
 'VonMises': [('loc', 0), ('concentration', 0)],
 'Weibull': [('scale', 0), ('concentration', 0)]}
# Transform -> the event_dim of its input (randn(4, 3) or randn(4, 3, 3)).
TRANSFORMS = {'AbsTransform': 1,
 'CorrCholeskyTransform': 1,
 'ExpTransform': 1,
 'LowerCholeskyTransform': 2,
 'PositiveDefiniteTransform': 2,
 'SigmoidTransform': 1,
 'SoftmaxTransform': 1,
 'SoftplusTransform': 1,
 'StickBreakingTransform': 1,
 'TanhTransform': 1}
SHAPES = {0: (4,), 1: (4, 3), 2: (4, 3, 3)}

ALL_MODELS = ([f"dist_{name}" for name in DISTS] + [f"transform_{name}" for name in TRANSFORMS]
              + [f"dist_{name}_unvalidated" for name in DISTS])
MODELS = list(ALL_MODELS)


def _models(torch, D, T):
    """One nn.Module class per model, written out so that the library calls stand in forward."""
    models = {}

    class dist_Bernoulli(torch.nn.Module):
        def forward(self, probs):
            d = D.Bernoulli(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Bernoulli'] = dist_Bernoulli

    class dist_Bernoulli_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.Bernoulli(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Bernoulli_unvalidated'] = dist_Bernoulli_unvalidated

    class dist_Beta(torch.nn.Module):
        def forward(self, concentration1, concentration0):
            d = D.Beta(concentration1=concentration1, concentration0=concentration0, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Beta'] = dist_Beta

    class dist_Beta_unvalidated(torch.nn.Module):
        def forward(self, concentration1, concentration0):
            d = D.Beta(concentration1=concentration1, concentration0=concentration0, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Beta_unvalidated'] = dist_Beta_unvalidated

    class dist_Binomial(torch.nn.Module):
        def forward(self, probs):
            d = D.Binomial(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Binomial'] = dist_Binomial

    class dist_Binomial_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.Binomial(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Binomial_unvalidated'] = dist_Binomial_unvalidated

    class dist_Categorical(torch.nn.Module):
        def forward(self, probs):
            d = D.Categorical(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Categorical'] = dist_Categorical

    class dist_Categorical_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.Categorical(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Categorical_unvalidated'] = dist_Categorical_unvalidated

    class dist_Cauchy(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Cauchy(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Cauchy'] = dist_Cauchy

    class dist_Cauchy_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Cauchy(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Cauchy_unvalidated'] = dist_Cauchy_unvalidated

    class dist_Chi2(torch.nn.Module):
        def forward(self, df):
            d = D.Chi2(df=df, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Chi2'] = dist_Chi2

    class dist_Chi2_unvalidated(torch.nn.Module):
        def forward(self, df):
            d = D.Chi2(df=df, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Chi2_unvalidated'] = dist_Chi2_unvalidated

    class dist_ContinuousBernoulli(torch.nn.Module):
        def forward(self, probs):
            d = D.ContinuousBernoulli(probs=probs, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_ContinuousBernoulli'] = dist_ContinuousBernoulli

    class dist_ContinuousBernoulli_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.ContinuousBernoulli(probs=probs, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_ContinuousBernoulli_unvalidated'] = dist_ContinuousBernoulli_unvalidated

    class dist_Dirichlet(torch.nn.Module):
        def forward(self, concentration):
            d = D.Dirichlet(concentration=concentration, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Dirichlet'] = dist_Dirichlet

    class dist_Dirichlet_unvalidated(torch.nn.Module):
        def forward(self, concentration):
            d = D.Dirichlet(concentration=concentration, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Dirichlet_unvalidated'] = dist_Dirichlet_unvalidated

    class dist_Exponential(torch.nn.Module):
        def forward(self, rate):
            d = D.Exponential(rate=rate, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Exponential'] = dist_Exponential

    class dist_Exponential_unvalidated(torch.nn.Module):
        def forward(self, rate):
            d = D.Exponential(rate=rate, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Exponential_unvalidated'] = dist_Exponential_unvalidated

    class dist_FisherSnedecor(torch.nn.Module):
        def forward(self, df1, df2):
            d = D.FisherSnedecor(df1=df1, df2=df2, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum()

    models['dist_FisherSnedecor'] = dist_FisherSnedecor

    class dist_FisherSnedecor_unvalidated(torch.nn.Module):
        def forward(self, df1, df2):
            d = D.FisherSnedecor(df1=df1, df2=df2, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum()

    models['dist_FisherSnedecor_unvalidated'] = dist_FisherSnedecor_unvalidated

    class dist_Gamma(torch.nn.Module):
        def forward(self, concentration, rate):
            d = D.Gamma(concentration=concentration, rate=rate, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Gamma'] = dist_Gamma

    class dist_Gamma_unvalidated(torch.nn.Module):
        def forward(self, concentration, rate):
            d = D.Gamma(concentration=concentration, rate=rate, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Gamma_unvalidated'] = dist_Gamma_unvalidated

    class dist_GeneralizedPareto(torch.nn.Module):
        def forward(self, loc, scale, concentration):
            d = D.GeneralizedPareto(loc=loc, scale=scale, concentration=concentration, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_GeneralizedPareto'] = dist_GeneralizedPareto

    class dist_GeneralizedPareto_unvalidated(torch.nn.Module):
        def forward(self, loc, scale, concentration):
            d = D.GeneralizedPareto(loc=loc, scale=scale, concentration=concentration, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_GeneralizedPareto_unvalidated'] = dist_GeneralizedPareto_unvalidated

    class dist_Geometric(torch.nn.Module):
        def forward(self, probs):
            d = D.Geometric(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Geometric'] = dist_Geometric

    class dist_Geometric_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.Geometric(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Geometric_unvalidated'] = dist_Geometric_unvalidated

    class dist_Gumbel(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Gumbel(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Gumbel'] = dist_Gumbel

    class dist_Gumbel_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Gumbel(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Gumbel_unvalidated'] = dist_Gumbel_unvalidated

    class dist_HalfCauchy(torch.nn.Module):
        def forward(self, scale):
            d = D.HalfCauchy(scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_HalfCauchy'] = dist_HalfCauchy

    class dist_HalfCauchy_unvalidated(torch.nn.Module):
        def forward(self, scale):
            d = D.HalfCauchy(scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_HalfCauchy_unvalidated'] = dist_HalfCauchy_unvalidated

    class dist_HalfNormal(torch.nn.Module):
        def forward(self, scale):
            d = D.HalfNormal(scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_HalfNormal'] = dist_HalfNormal

    class dist_HalfNormal_unvalidated(torch.nn.Module):
        def forward(self, scale):
            d = D.HalfNormal(scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_HalfNormal_unvalidated'] = dist_HalfNormal_unvalidated

    class dist_InverseGamma(torch.nn.Module):
        def forward(self, concentration, rate):
            d = D.InverseGamma(concentration=concentration, rate=rate, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_InverseGamma'] = dist_InverseGamma

    class dist_InverseGamma_unvalidated(torch.nn.Module):
        def forward(self, concentration, rate):
            d = D.InverseGamma(concentration=concentration, rate=rate, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_InverseGamma_unvalidated'] = dist_InverseGamma_unvalidated

    class dist_Kumaraswamy(torch.nn.Module):
        def forward(self, concentration1, concentration0):
            d = D.Kumaraswamy(concentration1=concentration1, concentration0=concentration0, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Kumaraswamy'] = dist_Kumaraswamy

    class dist_Kumaraswamy_unvalidated(torch.nn.Module):
        def forward(self, concentration1, concentration0):
            d = D.Kumaraswamy(concentration1=concentration1, concentration0=concentration0, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Kumaraswamy_unvalidated'] = dist_Kumaraswamy_unvalidated

    class dist_Laplace(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Laplace(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Laplace'] = dist_Laplace

    class dist_Laplace_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Laplace(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Laplace_unvalidated'] = dist_Laplace_unvalidated

    class dist_LogNormal(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.LogNormal(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_LogNormal'] = dist_LogNormal

    class dist_LogNormal_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.LogNormal(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_LogNormal_unvalidated'] = dist_LogNormal_unvalidated

    class dist_LogisticNormal(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.LogisticNormal(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum()

    models['dist_LogisticNormal'] = dist_LogisticNormal

    class dist_LogisticNormal_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.LogisticNormal(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum()

    models['dist_LogisticNormal_unvalidated'] = dist_LogisticNormal_unvalidated

    class dist_LowRankMultivariateNormal(torch.nn.Module):
        def forward(self, loc, cov_factor, cov_diag):
            d = D.LowRankMultivariateNormal(loc=loc, cov_factor=cov_factor, cov_diag=cov_diag, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_LowRankMultivariateNormal'] = dist_LowRankMultivariateNormal

    class dist_LowRankMultivariateNormal_unvalidated(torch.nn.Module):
        def forward(self, loc, cov_factor, cov_diag):
            d = D.LowRankMultivariateNormal(loc=loc, cov_factor=cov_factor, cov_diag=cov_diag, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_LowRankMultivariateNormal_unvalidated'] = dist_LowRankMultivariateNormal_unvalidated

    class dist_Multinomial(torch.nn.Module):
        def forward(self, probs):
            d = D.Multinomial(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Multinomial'] = dist_Multinomial

    class dist_Multinomial_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.Multinomial(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Multinomial_unvalidated'] = dist_Multinomial_unvalidated

    class dist_MultivariateNormal(torch.nn.Module):
        def forward(self, loc, covariance_matrix):
            d = D.MultivariateNormal(loc=loc, covariance_matrix=covariance_matrix, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_MultivariateNormal'] = dist_MultivariateNormal

    class dist_MultivariateNormal_unvalidated(torch.nn.Module):
        def forward(self, loc, covariance_matrix):
            d = D.MultivariateNormal(loc=loc, covariance_matrix=covariance_matrix, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_MultivariateNormal_unvalidated'] = dist_MultivariateNormal_unvalidated

    class dist_NegativeBinomial(torch.nn.Module):
        def forward(self, total_count, probs):
            d = D.NegativeBinomial(total_count=total_count, probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_NegativeBinomial'] = dist_NegativeBinomial

    class dist_NegativeBinomial_unvalidated(torch.nn.Module):
        def forward(self, total_count, probs):
            d = D.NegativeBinomial(total_count=total_count, probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_NegativeBinomial_unvalidated'] = dist_NegativeBinomial_unvalidated

    class dist_Normal(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Normal(loc=loc, scale=scale, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Normal'] = dist_Normal

    class dist_Normal_unvalidated(torch.nn.Module):
        def forward(self, loc, scale):
            d = D.Normal(loc=loc, scale=scale, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Normal_unvalidated'] = dist_Normal_unvalidated

    class dist_OneHotCategorical(torch.nn.Module):
        def forward(self, probs):
            d = D.OneHotCategorical(probs=probs, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_OneHotCategorical'] = dist_OneHotCategorical

    class dist_OneHotCategorical_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.OneHotCategorical(probs=probs, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_OneHotCategorical_unvalidated'] = dist_OneHotCategorical_unvalidated

    class dist_OneHotCategoricalStraightThrough(torch.nn.Module):
        def forward(self, probs):
            d = D.OneHotCategoricalStraightThrough(probs=probs, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_OneHotCategoricalStraightThrough'] = dist_OneHotCategoricalStraightThrough

    class dist_OneHotCategoricalStraightThrough_unvalidated(torch.nn.Module):
        def forward(self, probs):
            d = D.OneHotCategoricalStraightThrough(probs=probs, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_OneHotCategoricalStraightThrough_unvalidated'] = dist_OneHotCategoricalStraightThrough_unvalidated

    class dist_Pareto(torch.nn.Module):
        def forward(self, scale, alpha):
            d = D.Pareto(scale=scale, alpha=alpha, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Pareto'] = dist_Pareto

    class dist_Pareto_unvalidated(torch.nn.Module):
        def forward(self, scale, alpha):
            d = D.Pareto(scale=scale, alpha=alpha, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Pareto_unvalidated'] = dist_Pareto_unvalidated

    class dist_StudentT(torch.nn.Module):
        def forward(self, df):
            d = D.StudentT(df=df, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_StudentT'] = dist_StudentT

    class dist_StudentT_unvalidated(torch.nn.Module):
        def forward(self, df):
            d = D.StudentT(df=df, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_StudentT_unvalidated'] = dist_StudentT_unvalidated

    class dist_Poisson(torch.nn.Module):
        def forward(self, rate):
            d = D.Poisson(rate=rate, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_Poisson'] = dist_Poisson

    class dist_Poisson_unvalidated(torch.nn.Module):
        def forward(self, rate):
            d = D.Poisson(rate=rate, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_Poisson_unvalidated'] = dist_Poisson_unvalidated

    class dist_VonMises(torch.nn.Module):
        def forward(self, loc, concentration):
            d = D.VonMises(loc=loc, concentration=concentration, validate_args=True)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_VonMises'] = dist_VonMises

    class dist_VonMises_unvalidated(torch.nn.Module):
        def forward(self, loc, concentration):
            d = D.VonMises(loc=loc, concentration=concentration, validate_args=False)
            x = d.sample()
            return d.log_prob(x).sum()

    models['dist_VonMises_unvalidated'] = dist_VonMises_unvalidated

    class dist_Weibull(torch.nn.Module):
        def forward(self, scale, concentration):
            d = D.Weibull(scale=scale, concentration=concentration, validate_args=True)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Weibull'] = dist_Weibull

    class dist_Weibull_unvalidated(torch.nn.Module):
        def forward(self, scale, concentration):
            d = D.Weibull(scale=scale, concentration=concentration, validate_args=False)
            x = d.rsample()
            return d.log_prob(x).sum() + d.entropy().sum()

    models['dist_Weibull_unvalidated'] = dist_Weibull_unvalidated

    class transform_AbsTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.AbsTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.inv(y)

    models['transform_AbsTransform'] = transform_AbsTransform

    class transform_CorrCholeskyTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.CorrCholeskyTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_CorrCholeskyTransform'] = transform_CorrCholeskyTransform

    class transform_ExpTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.ExpTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_ExpTransform'] = transform_ExpTransform

    class transform_LowerCholeskyTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.LowerCholeskyTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.inv(y)

    models['transform_LowerCholeskyTransform'] = transform_LowerCholeskyTransform

    class transform_PositiveDefiniteTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.PositiveDefiniteTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.inv(y)

    models['transform_PositiveDefiniteTransform'] = transform_PositiveDefiniteTransform

    class transform_SigmoidTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.SigmoidTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_SigmoidTransform'] = transform_SigmoidTransform

    class transform_SoftplusTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.SoftplusTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_SoftplusTransform'] = transform_SoftplusTransform

    class transform_TanhTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.TanhTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_TanhTransform'] = transform_TanhTransform

    class transform_SoftmaxTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.SoftmaxTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.inv(y)

    models['transform_SoftmaxTransform'] = transform_SoftmaxTransform

    class transform_StickBreakingTransform(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.t = T.StickBreakingTransform()

        def forward(self, x):
            y = self.t(x)
            return y, self.t.log_abs_det_jacobian(x, y), self.t.inv(y)

    models['transform_StickBreakingTransform'] = transform_StickBreakingTransform
    return models


def build(name):
    import torch
    import torch.distributions as D
    from torch.distributions import transform_to
    from torch.distributions import transforms as T

    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(0)
    model = _models(torch, D, T)[name]()
    if name.startswith("dist_"):
        dist = name[len("dist_"):].removesuffix("_unvalidated")
        constraints = getattr(D, dist).arg_constraints
        args = tuple(transform_to(constraints[p])(torch.randn(SHAPES[e], generator=generator))
                     for p, e in DISTS[dist])
        return model, args, {}
    return model, (torch.randn(SHAPES[TRANSFORMS[name[len("transform_"):]]], generator=generator),), {}
