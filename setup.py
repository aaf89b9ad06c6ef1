"""rebalance-lens: why does my consumer group keep rebalancing, who caused it, how long did it stop."""

from setuptools import find_namespace_packages, find_packages, setup

# the bundled sample logs are data folders below jobs/samples/logs; listed as (namespace) packages of data,
# so that setuptools neither warns that an importable folder is missing from `packages` nor drops them
SAMPLE_LOG_DIRS = find_namespace_packages(include=["jobs.samples.logs", "jobs.samples.logs.*"])
#: the message catalogue's data files (jobs/ingest/catalogue/data/*.yaml)
CATALOGUE_DATA = "jobs.ingest.catalogue.data"

setup(
    name="rebalance-lens",
    version="0.1.0",
    description=(
        "PySpark batch analytics over Kafka group-coordinator logs: replays every consumer group "
        "through a pure model of Kafka's coordinator and writes rebalance tables to Delta."
    ),
    python_requires=">=3.11,<3.14",
    packages=find_packages(include=["coordinator_core", "coordinator_core.*", "jobs", "jobs.*"])
    + SAMPLE_LOG_DIRS
    + [CATALOGUE_DATA],
    # packages at the root: an editable install is then one .pth entry, without setuptools' warning
    # about "folders in your working directory with the same name as your package"
    package_dir={"": "."},
    package_data={
        "coordinator_core": ["py.typed"],
        "jobs": ["py.typed"],
        "jobs.samples": ["*.md"],
        CATALOGUE_DATA: ["*.yaml"],
        **{d: ["*"] for d in SAMPLE_LOG_DIRS},
    },
    include_package_data=True,
    install_requires=[
        "pyspark>=4.0.1,<=4.2.0",
        "delta-spark>=4.0,<5",
        "deltalake>=1.0,<2",
        "pandas>=2.2,<3",
        "pyarrow>=15,<27",
        "pyyaml>=6,<7",
        "matplotlib>=3.8,<4",
    ],
    extras_require={
        "test": [
            "pytest>=8,<10",
            "chispa>=0.10,<1",
            "hypothesis>=6.100,<7",
            "ruff>=0.6",
            "mypy>=1.10",
            "pytest-xdist>=3.5,<4",
            # real client libraries for tests/clients (librdkafka's mock cluster is their coordinator)
            "confluent-kafka>=2.10,<3",
            "kafka-python>=2.2,<4",
            "aiokafka>=0.12,<1",
        ],
        "connect": ["grpcio>=1.62", "protobuf>=5", "zstandard>=0.22", "grpcio-status>=1.62", "googleapis-common-protos>=1.60"],
    },
    entry_points={
        "console_scripts": [
            "rebalance-lens=jobs.cli:main",
        ]
    },
)
