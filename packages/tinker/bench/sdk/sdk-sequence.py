"""Drives the official tinker SDK (thinking-machines-lab/tinker, run from its own source) through the
request sequence the real services speak against a Tinker API server: handshake, create model, forward_backward,
optim_step, save for sampler, sample. Written for this repository; no SDK code is copied here.

Usage: PYTHONPATH=SDK/src:... python3 sdk-sequence.py URL
"""

import sys

import tinker
from tinker import types

url = sys.argv[1]
service = tinker.ServiceClient(base_url=url, api_key="tml-test-key")
print("sdk", tinker.__version__)
capabilities = service.get_server_capabilities()
print("capabilities", [model.model_name for model in capabilities.supported_models])
training = service.create_lora_training_client(base_model="hs/tiny-bag-bigram", rank=4)
datum = types.Datum(
    model_input=types.ModelInput.from_ints([1, 2, 3]),
    loss_fn_inputs={
        "target_tokens": types.TensorData(data=[2, 3, 4], dtype="int64", shape=[3]),
        "weights": types.TensorData(data=[1.0, 1.0, 1.0], dtype="float32", shape=[3]),
    },
)
first = training.forward_backward([datum], "cross_entropy").result()
print("forward_backward", first.metrics)
training.optim_step(types.AdamParams(learning_rate=0.5)).result()
second = training.forward_backward([datum], "cross_entropy").result()
print("forward_backward after optim_step", second.metrics)
training.optim_step(types.AdamParams(learning_rate=0.5)).result()
path = training.save_weights_for_sampler(name="sdk-step-2").result().path
print("sampler weights", path)
sampler = service.create_sampling_client(model_path=path)
result = sampler.sample(
    prompt=types.ModelInput.from_ints([1, 2]),
    num_samples=2,
    sampling_params=types.SamplingParams(max_tokens=3, seed=5, temperature=1.0),
).result()
print("sampled", [sequence.tokens for sequence in result.sequences])
assert second.metrics["loss:sum"] < first.metrics["loss:sum"], "the loss did not fall"
print("ok")
